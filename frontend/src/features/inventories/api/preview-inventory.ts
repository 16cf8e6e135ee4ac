import { useMutation } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";

export type InventoryPreview = Schemas["InventoryPreview"];

/** Resolve unsaved static text with ansible-inventory: the hosts and groups it would give. */
export function usePreviewInventory(projectId: number) {
  return useMutation({
    mutationFn: (body: InventoryPreview) =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/inventories/preview", {
          params: { path: { project_id: projectId } },
          body,
        }),
      ),
  });
}
