import { type UseQueryResult, useQueries } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { RunMetrics } from "@/features/metrics/api/get-run-metrics";

const POINTS = 400;

function combine(results: UseQueryResult<RunMetrics>[]) {
  return {
    data: results.map((r) => r.data),
    error: results.find((r) => r.error)?.error ?? null,
  };
}

/** Every lane (controller, sampled hosts) of each run, at most 400 points per series. */
export function useComparedMetrics(projectId: number, runIds: readonly number[]) {
  return useQueries({
    queries: runIds.map((runId) => ({
      queryKey: ["projects", projectId, "runs", runId, "metrics", POINTS, "compare"],
      queryFn: (): Promise<RunMetrics> =>
        unwrap(
          api.GET("/api/v1/projects/{project_id}/runs/{run_id}/metrics", {
            params: { path: { project_id: projectId, run_id: runId }, query: { points: POINTS } },
          }),
        ),
    })),
    combine,
  });
}
