import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import type { HostFilters, HostRunFilters } from "@/features/hosts/lib/host-filters";
import { queryString } from "@/features/hosts/lib/host-filters";

const PAGE = 50;

/** The hosts of a project (or, without one, of every project: admins), a page at a time. */
export function useHosts(projectId: number | undefined, filters: HostFilters, page: number) {
  const query = { ...filters, limit: PAGE, offset: (page - 1) * PAGE };
  return useQuery({
    queryKey: ["hosts", projectId ?? "all", query],
    queryFn: ({ signal }) =>
      projectId === undefined
        ? unwrap(api.GET("/api/v1/hosts", { params: { query }, signal }))
        : unwrap(
            api.GET("/api/v1/projects/{project_id}/hosts", {
              params: { path: { project_id: projectId }, query },
              signal,
            }),
          ),
    placeholderData: keepPreviousData,
  });
}

/** Where the project's inventories list the host, and what its runs saw. */
export function useHost(projectId: number, host: string) {
  return useQuery({
    queryKey: ["hosts", projectId, "host", host],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/hosts/{host}", {
          params: { path: { project_id: projectId, host } },
          signal,
        }),
      ),
  });
}

/** The runs that reached the host, newest first, a page at a time. */
export function useHostRuns(projectId: number, host: string, filters: HostRunFilters) {
  return useInfiniteQuery({
    queryKey: ["hosts", projectId, "runs", host, filters],
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/hosts/{host}/runs", {
          params: {
            path: { project_id: projectId, host },
            query: { ...filters, before_id: pageParam, limit: PAGE },
          },
          signal,
        }),
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next_before_id ?? undefined,
    placeholderData: keepPreviousData,
  });
}

interface ChangeCursor {
  run: number;
  counter: number;
}

/** The tasks that changed the host, newest first, a page at a time. */
export function useHostChanges(projectId: number, host: string) {
  return useInfiniteQuery({
    queryKey: ["hosts", projectId, "changes", host],
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/hosts/{host}/changes", {
          params: {
            path: { project_id: projectId, host },
            query: {
              before_run_id: pageParam?.run,
              before_counter: pageParam?.counter,
              limit: PAGE,
            },
          },
          signal,
        }),
      ),
    initialPageParam: undefined as ChangeCursor | undefined,
    getNextPageParam: (page): ChangeCursor | undefined =>
      page.next_before_run_id != null && page.next_before_counter != null
        ? { run: page.next_before_run_id, counter: page.next_before_counter }
        : undefined,
  });
}

/** The CSV of the host's runs with the same filters (a download, so a plain link). */
export function hostRunsExportUrl(projectId: number, host: string, filters: HostRunFilters) {
  const path = `/api/v1/projects/${projectId}/hosts/${encodeURIComponent(host)}/runs.csv`;
  const query = queryString(filters);
  return query ? `${path}?${query}` : path;
}
