import { useProjectContext } from "@/app/routes/project/context";
import { ProjectDriftView } from "@/features/plans/components/drift";

export function Component() {
  const { project } = useProjectContext();
  return <ProjectDriftView projectId={project.id} />;
}
