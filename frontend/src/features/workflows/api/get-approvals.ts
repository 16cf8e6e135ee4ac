import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

export const APPROVALS_REFRESH_MS = 15_000;

export const approvalsKey = ["approvals"] as const;

/**
 * The approvals inbox: approval nodes waiting for a decision the user may give, across
 * projects (the server chooses which), the longest waiting first; `total` counts them all.
 */
export function useWaitingApprovals(limit = 20) {
  return useQuery({
    queryKey: [...approvalsKey, { limit }],
    queryFn: ({ signal }) =>
      unwrap(api.GET("/api/v1/approvals", { params: { query: { limit } }, signal })),
    refetchInterval: APPROVALS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}
