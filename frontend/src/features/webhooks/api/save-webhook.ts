import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { webhookKeys } from "@/features/webhooks/api/query-keys";

/**
 * Create a webhook of a template or a workflow (webhookId null: the body names its one
 * target), or save all of its fields.
 */
export function useSaveWebhook(projectId: number, webhookId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas["WebhookTargetCreate"]) =>
      webhookId === null
        ? unwrap(
            api.POST("/api/v1/projects/{project_id}/webhooks", {
              params: { path: { project_id: projectId } },
              body,
            }),
          )
        : unwrap(
            api.PATCH("/api/v1/projects/{project_id}/webhooks/{webhook_id}", {
              params: { path: { project_id: projectId, webhook_id: webhookId } },
              body,
            }),
          ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.project(projectId) }),
  });
}

export function useDeleteWebhook(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: number) =>
      unwrap(
        api.DELETE("/api/v1/projects/{project_id}/webhooks/{webhook_id}", {
          params: { path: { project_id: projectId, webhook_id: webhookId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.project(projectId) }),
  });
}

/** A new receive URL; the old one stops answering. */
export function useRotateWebhookId(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: number) =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/webhooks/{webhook_id}/rotate-id", {
          params: { path: { project_id: projectId, webhook_id: webhookId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhookKeys.project(projectId) }),
  });
}
