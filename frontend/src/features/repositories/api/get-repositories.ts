import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { repositoryKeys } from "@/features/repositories/api/query-keys";

export function useRepositories(projectId: number, limit: number, offset: number) {
  return useQuery({
    queryKey: repositoryKeys.list(projectId, limit, offset),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/repositories", {
          params: { path: { project_id: projectId }, query: { limit, offset } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}
