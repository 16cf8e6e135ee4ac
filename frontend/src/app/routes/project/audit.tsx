import { useProjectContext } from "@/app/routes/project/context";
import { AuditPanel } from "@/features/audit/components/audit-panel";

export function Component() {
  const { project } = useProjectContext();
  return <AuditPanel projectId={project.id} />;
}
