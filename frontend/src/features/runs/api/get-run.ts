import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { runKeys } from "@/features/runs/api/query-keys";

export type Run = Schemas["RunRead"];
export type RunStatus = Schemas["RunStatus"];

const ACTIVE = new Set<RunStatus>(["queued", "running"]);

export function isActive(status: RunStatus): boolean {
  return ACTIVE.has(status);
}

export const runQuery = (projectId: number, runId: number) =>
  queryOptions({
    queryKey: runKeys.detail(projectId, runId),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/runs/{run_id}", {
          params: { path: { project_id: projectId, run_id: runId } },
        }),
      ),
    // the live stream says when the status changes; this is the fallback without it
    refetchInterval: (query) =>
      query.state.data && !isActive(query.state.data.status) ? false : 5000,
  });

export function useRun(projectId: number, runId: number) {
  return useQuery(runQuery(projectId, runId));
}
