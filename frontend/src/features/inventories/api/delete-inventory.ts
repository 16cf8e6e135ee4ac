import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { inventoryKeys } from "@/features/inventories/api/query-keys";

export function useDeleteInventory(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inventoryId: number) =>
      unwrap(
        api.DELETE("/api/v1/projects/{project_id}/inventories/{inventory_id}", {
          params: { path: { project_id: projectId, inventory_id: inventoryId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inventoryKeys.project(projectId) }),
  });
}
