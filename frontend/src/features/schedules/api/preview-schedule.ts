import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { Schemas } from "@/api/client";
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

/** The next occurrences of a recurrence not saved yet (the form, as it is typed); `null`: none. */
export function useDraftPreview(projectId: number, draft: Schemas["DraftPreview"] | null) {
  return useQuery({
    queryKey: scheduleKeys.draft(projectId, draft),
    queryFn: ({ signal }) => {
      if (draft === null) throw new Error("nothing to preview yet"); // not enabled then
      return unwrap(
        api.POST("/api/v1/projects/{project_id}/schedules/preview", {
          params: { path: { project_id: projectId } },
          body: draft,
          signal,
        }),
      );
    },
    enabled: draft !== null,
    placeholderData: keepPreviousData, // no flicker between two keystrokes
    retry: false, // a 422 is the answer: the expression is refused, and says why
  });
}
