import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export interface AuditFilters {
  project_id?: number;
  actor?: string;
  action?: string;
  since?: string;
  until?: string;
  q?: string;
  /** only the instance's own records (of no project): admins only */
  instance?: boolean;
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

export type AuditExportFormat = "jsonl" | "csv";

/** The export of the same records as JSON lines or CSV (a download, so a plain link). */
export function auditExportUrl(filters: AuditFilters, format: AuditExportFormat = "jsonl"): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (value !== undefined && value !== "" && value !== false) params.set(name, String(value));
  }
  const query = params.toString();
  const path = format === "csv" ? "/api/v1/audit/export.csv" : "/api/v1/audit/export";
  return `${path}${query ? `?${query}` : ""}`;
}
