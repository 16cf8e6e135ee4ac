import { useInfiniteQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { runKeys } from "@/features/runs/api/query-keys";

type RunPage = Schemas["RunPage"];

const ACTIVE = new Set<Schemas["RunStatus"]>(["queued", "running"]);

/** The filters of the runs list (all optional; the server pages by id, so any page is fast). */
export interface RunFilters {
  template_id?: number;
  status?: Schemas["RunStatus"][];
  launched_by_id?: number;
  host?: string;
  /** ISO 8601 */
  since?: string;
  until?: string;
  /** "name:value": a survey answer or extra var given at launch (exact value) */
  answer?: string[];
  /** "field:value": a launch setting (limit, tags, check_mode, …) */
  launch?: string[];
}

function fetchRuns(
  projectId: number | undefined,
  filters: RunFilters,
  limit: number,
  beforeId: number | undefined,
) {
  const query = { ...filters, limit, before_id: beforeId };
  if (projectId === undefined) return unwrap(api.GET("/api/v1/runs", { params: { query } }));
  return unwrap(
    api.GET("/api/v1/projects/{project_id}/runs", {
      params: { path: { project_id: projectId }, query },
    }),
  );
}

/**
 * Newest runs first, older pages on demand (the API pages runs by `before_id`). Without a
 * project: the runs of every project the user may see. Polls while a shown run is unfinished.
 */
export function useRuns(projectId: number | undefined, limit: number, filters: RunFilters = {}) {
  return useInfiniteQuery({
    queryKey: runKeys.list(projectId, { limit, ...filters }),
    queryFn: ({ pageParam }) => fetchRuns(projectId, filters, limit, pageParam),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: RunPage) => last.next_before_id ?? undefined,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.items.some((run) => ACTIVE.has(run.status)))
        ? 3000
        : false,
  });
}
