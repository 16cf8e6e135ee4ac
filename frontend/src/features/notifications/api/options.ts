import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** Schedules, of one template or of the project, for a schedule's subscription. */
export function useScheduleOptions(projectId: number, templateId: number | null, enabled: boolean) {
  return useQuery({
    queryKey: ["projects", projectId, "schedules", "options", templateId],
    queryFn: ({ signal }) =>
      templateId === null
        ? unwrap(
            api.GET("/api/v1/projects/{project_id}/schedules", {
              params: { path: { project_id: projectId }, query: { limit: 500 } },
              signal,
            }),
          )
        : unwrap(
            api.GET("/api/v1/projects/{project_id}/templates/{template_id}/schedules", {
              params: {
                path: { project_id: projectId, template_id: templateId },
                query: { limit: 500 },
              },
              signal,
            }),
          ),
    select: (page) =>
      page.items.map((s) => ({
        value: String(s.id),
        label: templateId === null ? `${s.name} (${s.template_name})` : s.name,
      })),
    enabled,
  });
}
