import { useProjectContext } from "@/app/routes/project/context";
import { AuditPanel } from "@/features/audit/components/audit-panel";
import { useMe } from "@/features/auth/api/get-me";

export function Component() {
  const { project } = useProjectContext();
  const isAdmin = useMe().data?.is_admin ?? false;
  return <AuditPanel projectId={project.id} isAdmin={isAdmin} />;
}
