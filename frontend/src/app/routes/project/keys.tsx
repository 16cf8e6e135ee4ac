import { useProjectContext } from "@/app/routes/project/context";
import { KeysPanel } from "@/features/keys/components/keys-panel";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  return (
    <KeysPanel
      projectId={project.id}
      canWrite={can(project.permissions, PROJECT_ACTIONS.resourceWrite)}
    />
  );
}
