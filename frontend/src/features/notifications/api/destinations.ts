import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { notificationKeys } from "@/features/notifications/api/query-keys";
import type { DestinationCreate } from "@/features/notifications/lib/destination-form";

export function useDestinations(projectId: number, limit: number, offset: number, enabled = true) {
  return useQuery({
    queryKey: notificationKeys.destinations(projectId, limit, offset),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/notification-destinations", {
          params: { path: { project_id: projectId }, query: { limit, offset } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
    enabled,
    retry: false,
  });
}

export function useDestination(projectId: number, destinationId: number) {
  return useQuery({
    queryKey: notificationKeys.destination(projectId, destinationId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/notification-destinations/{destination_id}", {
          params: { path: { project_id: projectId, destination_id: destinationId } },
          signal,
        }),
      ),
    retry: false,
  });
}

type Save =
  | { destinationId: null; body: DestinationCreate }
  | { destinationId: number; body: Schemas["DestinationUpdate"] };

export function useSaveDestination(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: Save) =>
      save.destinationId === null
        ? unwrap(
            api.POST("/api/v1/projects/{project_id}/notification-destinations", {
              params: { path: { project_id: projectId } },
              body: save.body,
            }),
          )
        : unwrap(
            api.PATCH("/api/v1/projects/{project_id}/notification-destinations/{destination_id}", {
              params: { path: { project_id: projectId, destination_id: save.destinationId } },
              body: save.body,
            }),
          ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: notificationKeys.project(projectId) }),
  });
}

export function useDeleteDestination(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (destinationId: number) =>
      unwrap(
        api.DELETE("/api/v1/projects/{project_id}/notification-destinations/{destination_id}", {
          params: { path: { project_id: projectId, destination_id: destinationId } },
        }),
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: notificationKeys.project(projectId) }),
  });
}

/** Queue a test message; the notifier sends it within a tick (follow it in the messages). */
export function useTestDestination(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (destinationId: number) =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/notification-destinations/{destination_id}/test", {
          params: { path: { project_id: projectId, destination_id: destinationId } },
        }),
      ),
    onSuccess: (_queued, destinationId) =>
      queryClient.invalidateQueries({
        queryKey: notificationKeys.messages(projectId, destinationId),
      }),
  });
}
