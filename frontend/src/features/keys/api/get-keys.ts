import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keyKeys } from "@/features/keys/api/query-keys";

export function useKeys(projectId: number, limit: number, offset: number) {
  return useQuery({
    queryKey: keyKeys.list(projectId, limit, offset),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/keys", {
          params: { path: { project_id: projectId }, query: { limit, offset } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}
