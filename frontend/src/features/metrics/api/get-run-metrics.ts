import { useQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import type { paths } from "@/api/schema";

export type RunMetrics = Schemas["MetricsRead"];
export type MetricLane = Schemas["LaneRead"];
export type MetricGap = Schemas["GapRead"];
export type TaskEntry = Schemas["TimelineEntry"];

const metricsKey = (projectId: number, runId: number, ...rest: unknown[]) =>
  ["projects", projectId, "runs", runId, "metrics", ...rest] as const;

/** Every lane of the run, averaged to at most `points` per series; `version` refetches. */
export function useRunMetrics(projectId: number, runId: number, version: string, points = 600) {
  return useQuery({
    queryKey: metricsKey(projectId, runId, points, version),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/runs/{run_id}/metrics", {
          params: { path: { project_id: projectId, run_id: runId }, query: { points } },
        }),
      ),
    placeholderData: (previous) => previous,
  });
}

/** The run's task results with their start and end: the strip the charts line up with. */
export function useRunTasks(projectId: number, runId: number, version: string) {
  return useQuery({
    queryKey: metricsKey(projectId, runId, "tasks", version),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/runs/{run_id}/timeline", {
          params: { path: { project_id: projectId, run_id: runId } },
        }),
      ),
    placeholderData: (previous) => previous,
  });
}

const EXPORT_PATH =
  "/api/v1/projects/{project_id}/runs/{run_id}/metrics/export" satisfies keyof paths;

/** A download link of every sample (CSV or JSON). */
export function exportUrl(projectId: number, runId: number, format: "csv" | "json") {
  const path = EXPORT_PATH.replace("{project_id}", String(projectId)).replace(
    "{run_id}",
    String(runId),
  );
  return `${path}?format=${format}`;
}
