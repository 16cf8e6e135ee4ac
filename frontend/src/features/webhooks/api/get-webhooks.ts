import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { webhookKeys } from "@/features/webhooks/api/query-keys";

/** The webhooks of one template, or (templateId null) of every template the caller sees. */
export function useWebhooks(
  projectId: number,
  templateId: number | null,
  limit: number,
  offset: number,
) {
  return useQuery({
    queryKey: webhookKeys.list(projectId, templateId, limit, offset),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/webhooks", {
          params: {
            path: { project_id: projectId },
            query: { limit, offset, ...(templateId === null ? {} : { template_id: templateId }) },
          },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useWebhook(projectId: number, webhookId: number) {
  return useQuery({
    queryKey: webhookKeys.detail(projectId, webhookId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/webhooks/{webhook_id}", {
          params: { path: { project_id: projectId, webhook_id: webhookId } },
          signal,
        }),
      ),
    retry: false,
  });
}
