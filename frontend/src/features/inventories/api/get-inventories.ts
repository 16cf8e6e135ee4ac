import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { inventoryKeys } from "@/features/inventories/api/query-keys";

export function useInventories(projectId: number, limit: number, offset: number) {
  return useQuery({
    queryKey: inventoryKeys.list(projectId, limit, offset),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/inventories", {
          params: { path: { project_id: projectId }, query: { limit, offset } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}
