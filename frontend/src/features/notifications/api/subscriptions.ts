import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { notificationKeys } from "@/features/notifications/api/query-keys";

/**
 * The project's subscriptions (templateId null), or what is told about one template's runs:
 * its own, its schedules' and the project-wide ones.
 */
export function useSubscriptions(
  projectId: number,
  templateId: number | null,
  limit: number,
  offset: number,
) {
  return useQuery({
    queryKey: notificationKeys.subscriptions(projectId, templateId, limit, offset),
    queryFn: ({ signal }) =>
      templateId === null
        ? unwrap(
            api.GET("/api/v1/projects/{project_id}/notification-subscriptions", {
              params: { path: { project_id: projectId }, query: { limit, offset } },
              signal,
            }),
          )
        : unwrap(
            api.GET(
              "/api/v1/projects/{project_id}/templates/{template_id}/notification-subscriptions",
              {
                params: {
                  path: { project_id: projectId, template_id: templateId },
                  query: { limit, offset },
                },
                signal,
              },
            ),
          ),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

type Save =
  | { subscriptionId: null; body: Schemas["SubscriptionCreate"] }
  | { subscriptionId: number; body: Schemas["SubscriptionUpdate"] };

export function useSaveSubscription(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: Save) =>
      save.subscriptionId === null
        ? unwrap(
            api.POST("/api/v1/projects/{project_id}/notification-subscriptions", {
              params: { path: { project_id: projectId } },
              body: save.body,
            }),
          )
        : unwrap(
            api.PATCH(
              "/api/v1/projects/{project_id}/notification-subscriptions/{subscription_id}",
              {
                params: { path: { project_id: projectId, subscription_id: save.subscriptionId } },
                body: save.body,
              },
            ),
          ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: notificationKeys.project(projectId) }),
  });
}

export function useDeleteSubscription(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subscriptionId: number) =>
      unwrap(
        api.DELETE("/api/v1/projects/{project_id}/notification-subscriptions/{subscription_id}", {
          params: { path: { project_id: projectId, subscription_id: subscriptionId } },
        }),
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: notificationKeys.project(projectId) }),
  });
}
