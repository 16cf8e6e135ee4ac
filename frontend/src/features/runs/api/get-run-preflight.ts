import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The hosts the run's pre-flight found failing, why, and whether the run left them out;
 * read again as the run's status moves (the pre-flight runs once it is claimed). */
export function useRunPreflight(projectId: number, runId: number, status: string) {
  return useQuery({
    queryKey: ["runs", projectId, runId, "preflight", status],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/runs/{run_id}/preflight", {
          params: { path: { project_id: projectId, run_id: runId } },
          signal,
        }),
      ),
    enabled: status !== "queued",
  });
}
