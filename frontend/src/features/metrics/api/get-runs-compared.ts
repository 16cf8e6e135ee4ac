import { useQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";

export type RunsCompared = Schemas["RunsCompared"];
export type ComparedTask = Schemas["TaskRow"];
export type ComparedRun = Schemas["RunRead"];

/** 2–4 runs side by side, aligned by the server (`GET …/runs/compare?ids=`). */
export function useRunsCompared(projectId: number, runIds: readonly number[]) {
  return useQuery({
    queryKey: ["projects", projectId, "runs", "compare", runIds.join(",")],
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/runs/compare", {
          params: { path: { project_id: projectId }, query: { ids: runIds.join(",") } },
        }),
      ),
    enabled: runIds.length >= 2,
    // a run still going changes its tasks: look again while one is active
    refetchInterval: (query) =>
      query.state.data?.runs.some((r) => r.status === "queued" || r.status === "running")
        ? 5000
        : false,
  });
}
