import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/**
 * The templates a schedule may be made for (the caller may change them), with their surveys
 * and allowed overrides, for the schedule form's picker and launch values.
 */
export function useWritableTemplates(projectId: number, enabled = true) {
  return useQuery({
    queryKey: ["projects", projectId, "templates", "options"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/templates", {
          params: { path: { project_id: projectId }, query: { limit: 500 } },
          signal,
        }),
      ),
    select: (page) => page.items.filter((t) => t.permissions?.includes("write") ?? false),
    enabled,
  });
}

/** One template (its survey and overrides), for editing a schedule of it. */
export function useScheduleTemplate(projectId: number, templateId: number | null) {
  return useQuery({
    queryKey: ["projects", projectId, "templates", templateId],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/templates/{template_id}", {
          params: { path: { project_id: projectId, template_id: templateId ?? 0 } },
          signal,
        }),
      ),
    enabled: templateId !== null,
    retry: false,
  });
}
