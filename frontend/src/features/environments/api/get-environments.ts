import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export function useEnvironments(projectId: number, limit: number, offset: number) {
  return useQuery({
    queryKey: ["projects", projectId, "environments", "list", { limit, offset }],
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
