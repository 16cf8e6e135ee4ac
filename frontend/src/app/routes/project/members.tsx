import { useProjectContext } from "@/app/routes/project/context";
import { HolderPicker } from "@/features/auth/components/holder-picker";
import { MembersPanel } from "@/features/projects/components/members-panel";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  return (
    <MembersPanel
      projectId={project.id}
      canManage={can(project.permissions, PROJECT_ACTIONS.membersManage)}
      renderHolderPicker={(props) => <HolderPicker {...props} />}
    />
  );
}
