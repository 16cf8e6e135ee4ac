import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { inventoryKeys } from "@/features/inventories/api/query-keys";

export type InventoryCreate = Schemas["InventoryCreate"];

/** Create (no id) or change (id) an inventory; the server parses static text on save. */
export function useSaveInventory(projectId: number, inventoryId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InventoryCreate) =>
      inventoryId === null
        ? unwrap(
            api.POST("/api/v1/projects/{project_id}/inventories", {
              params: { path: { project_id: projectId } },
              body,
            }),
          )
        : unwrap(
            api.PATCH("/api/v1/projects/{project_id}/inventories/{inventory_id}", {
              params: { path: { project_id: projectId, inventory_id: inventoryId } },
              body,
            }),
          ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inventoryKeys.project(projectId) }),
  });
}
