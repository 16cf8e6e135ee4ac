import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { scheduleKeys } from "@/features/schedules/api/query-keys";

/**
 * Create a schedule of a template or a workflow (scheduleId null: the body names its one
 * target) or save all of a schedule's fields: the whole form goes, so what the person sees is
 * what is stored.
 */
export function useSaveSchedule(projectId: number, scheduleId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas["ScheduleTargetCreate"]) =>
      scheduleId === null
        ? unwrap(
            api.POST("/api/v1/projects/{project_id}/schedules", {
              params: { path: { project_id: projectId } },
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
