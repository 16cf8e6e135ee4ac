import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const DASHBOARD_REFRESH_MS = 10_000;

/** The caller's IANA zone, as the browser knows it (the server refuses anything else: 422). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/**
 * The home dashboard over the projects the user may see: runs per day by status in `tz`,
 * failing templates, running and queued runs (why each waits). Refreshed every 10 s.
 */
export function useDashboard(days: number, tz: string) {
  return useQuery({
    queryKey: ["dashboard", { days, tz }],
    queryFn: () => unwrap(api.GET("/api/v1/dashboard", { params: { query: { days, tz } } })),
    refetchInterval: DASHBOARD_REFRESH_MS,
    placeholderData: keepPreviousData, // switching 7 -> 30 days keeps the page in place
  });
}
