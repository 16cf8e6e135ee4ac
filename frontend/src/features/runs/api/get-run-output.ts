import { useQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import type { paths } from "@/api/schema";
import { runKeys } from "@/features/runs/api/query-keys";

export type HostRecap = Schemas["HostRecap"];
export type TimelineEntry = Schemas["TimelineEntry"];
export type LinePage = Schemas["LinePage"];

export interface LineQuery {
  after: number;
  limit: number;
  q?: string;
  host?: string;
  failed?: boolean;
}

export function fetchLines(projectId: number, runId: number, query: LineQuery) {
  return unwrap(
    api.GET("/api/v1/projects/{project_id}/runs/{run_id}/lines", {
      params: { path: { project_id: projectId, run_id: runId }, query },
    }),
  );
}

export interface EventQuery {
  after?: number;
  limit?: number;
  host?: string;
  event?: string;
  failed?: boolean;
  changed?: boolean;
  q?: string;
}

export function fetchEvents(projectId: number, runId: number, query: EventQuery) {
  return unwrap(
    api.GET("/api/v1/projects/{project_id}/runs/{run_id}/events", {
      params: { path: { project_id: projectId, run_id: runId }, query },
    }),
  );
}

/** The line where the first failed (or unreachable) task's output starts, or null. */
export async function fetchFirstFailureLine(projectId: number, runId: number) {
  const page = await fetchEvents(projectId, runId, { failed: true, limit: 1 });
  return page.items[0]?.start_line ?? null;
}

/** Host recap and timeline change while the run goes on: a new `version` refetches them. */
export function useRunHosts(projectId: number, runId: number, version: string) {
  return useQuery({
    queryKey: runKeys.part(projectId, runId, "hosts", version),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/runs/{run_id}/hosts", {
          params: { path: { project_id: projectId, run_id: runId } },
        }),
      ),
    placeholderData: (previous) => previous,
  });
}

export function useRunTimeline(projectId: number, runId: number, version: string) {
  return useQuery({
    queryKey: runKeys.part(projectId, runId, "timeline", version),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/runs/{run_id}/timeline", {
          params: { path: { project_id: projectId, run_id: runId } },
        }),
      ),
    placeholderData: (previous) => previous,
  });
}

// EventSource and download links need the URL itself; the path is still checked against the schema.
const STREAM_PATH = "/api/v1/projects/{project_id}/runs/{run_id}/stream" satisfies keyof paths;
const OUTPUT_PATH = "/api/v1/projects/{project_id}/runs/{run_id}/output" satisfies keyof paths;

function fill(path: string, projectId: number, runId: number) {
  return path.replace("{project_id}", String(projectId)).replace("{run_id}", String(runId));
}

export const streamUrl = (projectId: number, runId: number) => fill(STREAM_PATH, projectId, runId);

export const outputUrl = (projectId: number, runId: number, ansi: boolean) =>
  `${fill(OUTPUT_PATH, projectId, runId)}?ansi=${ansi}`;
