import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The host's metrics per run: the newest `limit` runs that sampled it, oldest first. */
export function useHostMetrics(projectId: number, host: string, limit: number) {
  return useQuery({
    queryKey: ["hosts", projectId, "metrics", host, limit],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/hosts/{host}/metrics", {
          params: { path: { project_id: projectId, host }, query: { limit } },
          signal,
        }),
      ),
  });
}
