import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export interface AuditFilters {
  project_id?: number;
  actor?: string;
  action?: string;
  since?: string;
  until?: string;
  q?: string;
}

/** Newest first, a page at a time (the API pages by `before_id`). */
export function useAudit(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: ["audit", filters],
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.GET("/api/v1/audit", {
          params: { query: { ...filters, before_id: pageParam, limit: 50 } },
          signal,
        }),
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next_before_id ?? undefined,
    placeholderData: keepPreviousData,
  });
}

/** The JSON-lines export of the same records (a download, so a plain link). */
export function auditExportUrl(filters: AuditFilters): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (value !== undefined && value !== "") params.set(name, String(value));
  }
  const query = params.toString();
  return `/api/v1/audit/export${query ? `?${query}` : ""}`;
}
