import { useInfiniteQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { notificationKeys } from "@/features/notifications/api/query-keys";

/**
 * A destination's messages, newest first, each with its attempts; polled every two seconds
 * while one is still on its way (pending or sending), so an attempt shows as it happens.
 */
export function useMessages(projectId: number, destinationId: number) {
  return useInfiniteQuery({
    queryKey: notificationKeys.messages(projectId, destinationId),
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.GET(
          "/api/v1/projects/{project_id}/notification-destinations/{destination_id}/messages",
          {
            params: {
              path: { project_id: projectId, destination_id: destinationId },
              query: { limit: 20, ...(pageParam === null ? {} : { before_id: pageParam }) },
            },
            signal,
          },
        ),
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (page) => page.next_before_id,
    refetchInterval: (query) => {
      const pages = query.state.data?.pages ?? [];
      const moving = pages.some((page) =>
        page.items.some((m) => m.status === "pending" || m.status === "sending"),
      );
      return moving ? 2_000 : 30_000;
    },
  });
}
