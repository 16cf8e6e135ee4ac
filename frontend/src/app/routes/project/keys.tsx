import { useProjectContext } from "@/app/routes/project/context";
import { KeysPanel } from "@/features/keys/components/keys-panel";

export function Component() {
  const { project } = useProjectContext();
  return <KeysPanel projectId={project.id} />;
}
