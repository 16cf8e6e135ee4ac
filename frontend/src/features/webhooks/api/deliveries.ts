import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { webhookKeys } from "@/features/webhooks/api/query-keys";

/** A webhook's deliveries, newest first, a page at a time (older ones on demand). */
export function useDeliveries(projectId: number, webhookId: number, enabled = true) {
  return useInfiniteQuery({
    queryKey: webhookKeys.deliveries(projectId, webhookId),
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/webhooks/{webhook_id}/deliveries", {
          params: {
            path: { project_id: projectId, webhook_id: webhookId },
            query: { limit: 25, ...(pageParam === null ? {} : { before_id: pageParam }) },
          },
          signal,
        }),
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (page) => page.next_before_id,
    enabled,
    // deliveries arrive from outside: look again now and then
    refetchInterval: 15_000,
  });
}

/** One delivery with its headers, body and the launch values taken from it. */
export function useDelivery(projectId: number, webhookId: number, deliveryId: number | null) {
  return useQuery({
    queryKey: webhookKeys.delivery(projectId, webhookId, deliveryId ?? 0),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/webhooks/{webhook_id}/deliveries/{delivery_id}", {
          params: {
            path: { project_id: projectId, webhook_id: webhookId, delivery_id: deliveryId ?? 0 },
          },
          signal,
        }),
      ),
    enabled: deliveryId !== null,
    retry: false,
  });
}

/** A delivery signed by the server with the webhook's secret: a dry run unless `launch`. */
export function useTestDelivery(projectId: number, webhookId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas["TestDelivery"]) =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/webhooks/{webhook_id}/test", {
          params: { path: { project_id: projectId, webhook_id: webhookId } },
          body,
        }),
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(projectId, webhookId) }),
  });
}
