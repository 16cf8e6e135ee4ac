import { useNavigate } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { createInPlace } from "@/app/routes/project/create-in-place";
import { HolderPicker } from "@/features/auth/components/holder-picker";
import { TemplatesTable } from "@/features/templates/components/templates-table";
import { paths } from "@/lib/paths";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  const navigate = useNavigate();
  return (
    <TemplatesTable
      projectId={project.id}
      canCreate={can(project.permissions, PROJECT_ACTIONS.templateWrite)}
      canManageGrants={can(project.permissions, PROJECT_ACTIONS.membersManage)}
      canViewGrants={can(project.permissions, PROJECT_ACTIONS.membersView)}
      renderHolderPicker={(props) => <HolderPicker {...props} />}
      createInPlace={createInPlace(project)}
      onLaunched={(run) => void navigate(paths.project(project.id, `runs/${run.id}`))}
    />
  );
}
