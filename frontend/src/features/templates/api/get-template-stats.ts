import { useQuery } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { templateKeys } from "@/features/templates/api/query-keys";

export type TemplateStats = Schemas["TemplateStats"];

/** The template's last `last` runs, success rates and slowest tasks; refreshed every 30 s. */
export function useTemplateStats(projectId: number, templateId: number, last: number) {
  return useQuery({
    queryKey: [...templateKeys.detail(projectId, templateId), "stats", last],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/templates/{template_id}/stats", {
          params: { path: { project_id: projectId, template_id: templateId }, query: { last } },
          signal,
        }),
      ),
    placeholderData: (previous) => previous,
    refetchInterval: 30_000,
  });
}
