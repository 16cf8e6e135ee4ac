import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { scheduleKeys } from "@/features/schedules/api/query-keys";

export function useDeleteSchedule(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (scheduleId: number) =>
      unwrap(
        api.DELETE("/api/v1/projects/{project_id}/schedules/{schedule_id}", {
          params: { path: { project_id: projectId, schedule_id: scheduleId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.project(projectId) }),
  });
}
