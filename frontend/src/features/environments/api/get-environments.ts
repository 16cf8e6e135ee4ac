import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { environmentKeys } from "@/features/environments/api/query-keys";

export function useEnvironments(projectId: number, limit: number, offset: number) {
  return useQuery({
    queryKey: environmentKeys.list(projectId, limit, offset),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/environments", {
          params: { path: { project_id: projectId }, query: { limit, offset } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}
