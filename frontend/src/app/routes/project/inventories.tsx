import { useProjectContext } from "@/app/routes/project/context";
import { InventoriesTable } from "@/features/inventories/components/inventories-table";

export function Component() {
  const { project } = useProjectContext();
  return <InventoriesTable projectId={project.id} />;
}
