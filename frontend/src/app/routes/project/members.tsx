import { useProjectContext } from "@/app/routes/project/context";
import { MembersPanel } from "@/features/projects/components/members-panel";

export function Component() {
  const { project } = useProjectContext();
  return <MembersPanel projectId={project.id} />;
}
