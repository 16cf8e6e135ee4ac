import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { scheduleKeys } from "@/features/schedules/api/query-keys";

/**
 * Create a schedule of `templateId` (scheduleId null) or save all of a schedule's fields: the
 * whole form goes, so what the person sees is what is stored.
 */
export function useSaveSchedule(projectId: number, scheduleId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ templateId, body }: { templateId: number; body: Schemas["ScheduleCreate"] }) =>
      scheduleId === null
        ? unwrap(
            api.POST("/api/v1/projects/{project_id}/templates/{template_id}/schedules", {
              params: { path: { project_id: projectId, template_id: templateId } },
              body,
            }),
          )
        : unwrap(
            api.PATCH("/api/v1/projects/{project_id}/schedules/{schedule_id}", {
              params: { path: { project_id: projectId, schedule_id: scheduleId } },
              body,
            }),
          ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.project(projectId) }),
  });
}

/** Switch a schedule on or off (on again clears the reason Steward disabled it for). */
export function useToggleSchedule(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ scheduleId, enabled }: { scheduleId: number; enabled: boolean }) =>
      unwrap(
        api.PATCH("/api/v1/projects/{project_id}/schedules/{schedule_id}", {
          params: { path: { project_id: projectId, schedule_id: scheduleId } },
          body: { enabled },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.project(projectId) }),
  });
}
