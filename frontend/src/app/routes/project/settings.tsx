import { useNavigate } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { ProjectSettings } from "@/features/projects/components/project-settings";
import { paths } from "@/lib/paths";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  const navigate = useNavigate();
  return (
    <ProjectSettings
      project={project}
      canEdit={can(project.permissions, PROJECT_ACTIONS.edit)}
      onDeleted={() => void navigate(paths.home(), { replace: true })}
    />
  );
}
