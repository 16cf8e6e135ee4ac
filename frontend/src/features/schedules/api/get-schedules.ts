import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { scheduleKeys } from "@/features/schedules/api/query-keys";

/** The schedules of one template, or (templateId null) of every template the caller sees. */
export function useSchedules(
  projectId: number,
  templateId: number | null,
  limit: number,
  offset: number,
) {
  return useQuery({
    queryKey: scheduleKeys.list(projectId, templateId, limit, offset),
    queryFn: ({ signal }) =>
      templateId === null
        ? unwrap(
            api.GET("/api/v1/projects/{project_id}/schedules", {
              params: { path: { project_id: projectId }, query: { limit, offset } },
              signal,
            }),
          )
        : unwrap(
            api.GET("/api/v1/projects/{project_id}/templates/{template_id}/schedules", {
              params: {
                path: { project_id: projectId, template_id: templateId },
                query: { limit, offset },
              },
              signal,
            }),
          ),
    placeholderData: keepPreviousData,
  });
}
