import { useProjectContext } from "@/app/routes/project/context";
import { createInPlace } from "@/app/routes/project/create-in-place";
import { RepositoriesTable } from "@/features/repositories/components/repositories-table";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  return (
    <RepositoriesTable
      projectId={project.id}
      canWrite={can(project.permissions, PROJECT_ACTIONS.resourceWrite)}
      localRoots={project.local_roots}
      createInPlace={createInPlace(project)}
    />
  );
}
