import type { Schemas } from "@/api/client";
import { paths } from "@/lib/paths";

type Record = Pick<Schemas["AuditRead"], "object_type" | "object_id" | "project_id">;

/** "run #12 patch", "inventory prod": what a record concerns, as its row shows it. */
export function describeObject(
  record: Pick<Schemas["AuditRead"], "object_type" | "object_id" | "object_name">,
): string {
  const { object_type: type, object_id: id, object_name: name } = record;
  if (type === "run" && id !== null) return `run #${id}${name ? ` ${name}` : ""}`;
  return `${type} ${name || (id ?? "")}`.trim();
}

// the project page that lists each kind of object
const SECTION: Partial<{ [type: string]: string }> = {
  template: "templates",
  inventory: "inventories",
  repository: "repositories",
  key: "keys",
  environment: "environments",
  member: "members",
  grant: "templates",
  schedule: "templates",
  webhook: "templates",
};

/** Where the object an audit record concerns is shown: its run, or the project's list of its
 * kind; null when the console has no page for it (a token, a deleted project). */
export function auditLink(record: Record, isAdmin: boolean): string | null {
  const { object_type: type, object_id: id, project_id: project } = record;
  if (type === "run" && project !== null && id !== null) return paths.run(project, id);
  if (type === "project" && id !== null) return paths.project(id);
  const section = SECTION[type];
  if (section && project !== null) return paths.project(project, section);
  if (isAdmin && type === "user") return paths.adminUsers();
  if (isAdmin && type === "team") return paths.adminTeams();
  return null;
}
