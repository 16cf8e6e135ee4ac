import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The host's current facts, or (``point``) its facts at a point of their history. */
export function useHostFacts(projectId: number, host: string, point?: number) {
  return useQuery({
    queryKey: ["hosts", projectId, "facts", host, point ?? "current"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/hosts/{host}/facts", {
          params: { path: { project_id: projectId, host }, query: { point } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** The points where the host's facts changed, newest first, a page at a time. */
export function useFactHistory(projectId: number, host: string) {
  return useInfiniteQuery({
    queryKey: ["hosts", projectId, "fact-history", host],
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/hosts/{host}/facts/history", {
          params: {
            path: { project_id: projectId, host },
            query: { before_id: pageParam, limit: 50 },
          },
          signal,
        }),
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next_before_id ?? undefined,
  });
}

/** What changed between two points of the host's facts (both chosen, and not the same). */
export function useFactDiff(projectId: number, host: string, from?: number, to?: number) {
  return useQuery({
    queryKey: ["hosts", projectId, "fact-diff", host, from, to],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/hosts/{host}/facts/diff", {
          params: {
            path: { project_id: projectId, host },
            query: { from: from ?? 0, to: to ?? 0 },
          },
          signal,
        }),
      ),
    enabled: from !== undefined && to !== undefined && from !== to,
    placeholderData: keepPreviousData,
  });
}
