import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { galaxyServerKeys } from "@/features/galaxy/api/query-keys";

/** In the order ansible-galaxy asks them (position, then name). */
export function useGalaxyServers(projectId: number, limit: number, offset: number) {
  return useQuery({
    queryKey: galaxyServerKeys.list(projectId, limit, offset),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/galaxy-servers", {
          params: { path: { project_id: projectId }, query: { limit, offset } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}
