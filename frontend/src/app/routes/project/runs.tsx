import { useProjectContext } from "@/app/routes/project/context";
import { RunsTable } from "@/features/runs/components/runs-table";

export function Component() {
  const { project } = useProjectContext();
  return <RunsTable projectId={project.id} />;
}
