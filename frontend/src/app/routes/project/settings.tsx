import { useNavigate } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { Divider } from "@mantine/core";
import { GalaxyServersPanel } from "@/features/galaxy/components/galaxy-servers-panel";
import { useMe } from "@/features/auth/api/get-me";
import { LocalRootsPanel } from "@/features/projects/components/local-roots-panel";
import { ProjectSettings } from "@/features/projects/components/project-settings";
import { paths } from "@/lib/paths";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  const navigate = useNavigate();
  const isAdmin = useMe().data?.is_admin ?? false;
  return (
    <ProjectSettings
      project={project}
      canEdit={can(project.permissions, PROJECT_ACTIONS.edit)}
      onDeleted={() => void navigate(paths.projects(), { replace: true })}
      sections={
        <>
          <Divider my="md" />
          <LocalRootsPanel project={project} isAdmin={isAdmin} />
          <Divider my="md" />
          <GalaxyServersPanel
            projectId={project.id}
            canWrite={can(project.permissions, PROJECT_ACTIONS.resourceWrite)}
          />
        </>
      }
    />
  );
}
