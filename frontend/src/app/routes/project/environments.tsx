import { useProjectContext } from "@/app/routes/project/context";
import { EnvironmentsTable } from "@/features/environments/components/environments-table";

export function Component() {
  const { project } = useProjectContext();
  return <EnvironmentsTable projectId={project.id} />;
}
