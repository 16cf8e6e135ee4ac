import { useProjectContext } from "@/app/routes/project/context";
import { createInPlace } from "@/app/routes/project/create-in-place";
import { EnvironmentsTable } from "@/features/environments/components/environments-table";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  return (
    <EnvironmentsTable
      projectId={project.id}
      canWrite={can(project.permissions, PROJECT_ACTIONS.resourceWrite)}
      createInPlace={createInPlace(project)}
    />
  );
}
