import { useQueries } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";

export interface ComparedRun {
  run: Schemas["RunRead"];
  metrics: Schemas["MetricsRead"];
  tasks: Schemas["TimelineEntry"][];
}

async function fetchCompared(projectId: number, runId: number, host: string | null) {
  const path = { project_id: projectId, run_id: runId };
  const [run, metrics, tasks] = await Promise.all([
    unwrap(api.GET("/api/v1/projects/{project_id}/runs/{run_id}", { params: { path } })),
    unwrap(
      api.GET("/api/v1/projects/{project_id}/runs/{run_id}/metrics", {
        params: {
          path,
          query: host === null ? { kind: "controller", points: 400 } : { host, points: 400 },
        },
      }),
    ),
    unwrap(api.GET("/api/v1/projects/{project_id}/runs/{run_id}/timeline", { params: { path } })),
  ]);
  return { run, metrics, tasks };
}

/** Each run with the metrics of one machine (null: the controller) and its task results. */
export function useComparedRuns(projectId: number, runIds: readonly number[], host: string | null) {
  return useQueries({
    queries: runIds.map((runId) => ({
      queryKey: ["projects", projectId, "runs", runId, "compare", host],
      queryFn: () => fetchCompared(projectId, runId, host),
    })),
  });
}
