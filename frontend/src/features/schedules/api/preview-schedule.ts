import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { scheduleKeys } from "@/features/schedules/api/query-keys";

/** The next `count` occurrences of a saved schedule, in its zone and in the viewer's. */
export function useSchedulePreview(
  projectId: number,
  scheduleId: number,
  viewerTz: string,
  count = 10,
) {
  return useQuery({
    queryKey: scheduleKeys.preview(projectId, scheduleId, viewerTz, count),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/schedules/{schedule_id}/preview", {
          params: {
            path: { project_id: projectId, schedule_id: scheduleId },
            query: { count, viewer_tz: viewerTz },
          },
          signal,
        }),
      ),
    // "the next occurrences from now": a minute later the first may be gone
    refetchInterval: 60_000,
  });
}
