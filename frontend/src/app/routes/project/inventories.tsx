import { useProjectContext } from "@/app/routes/project/context";
import { createInPlace } from "@/app/routes/project/create-in-place";
import { InventoriesTable } from "@/features/inventories/components/inventories-table";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  return (
    <InventoriesTable
      projectId={project.id}
      canWrite={can(project.permissions, PROJECT_ACTIONS.resourceWrite)}
      canRunCommand={can(project.permissions, PROJECT_ACTIONS.adhocRun)}
      createInPlace={createInPlace(project)}
    />
  );
}
