import { useProjectContext } from "@/app/routes/project/context";
import { RepositoriesTable } from "@/features/repositories/components/repositories-table";

export function Component() {
  const { project } = useProjectContext();
  return <RepositoriesTable projectId={project.id} />;
}
