import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { inventoryKeys } from "@/features/inventories/api/query-keys";

/** A saved inventory's hosts as Ansible sees them (file/plugin kinds check out the repository). */
export function useInventoryHosts(projectId: number, inventoryId: number) {
  return useQuery({
    queryKey: inventoryKeys.hosts(projectId, inventoryId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/inventories/{inventory_id}/hosts", {
          params: { path: { project_id: projectId, inventory_id: inventoryId } },
          signal,
        }),
      ),
    retry: false,
  });
}
