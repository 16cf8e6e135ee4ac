import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { scheduleKeys } from "@/features/schedules/api/query-keys";

export function useSchedule(projectId: number, scheduleId: number) {
  return useQuery({
    queryKey: scheduleKeys.detail(projectId, scheduleId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/schedules/{schedule_id}", {
          params: { path: { project_id: projectId, schedule_id: scheduleId } },
          signal,
        }),
      ),
    retry: false,
  });
}
