import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { templateKeys } from "@/features/templates/api/query-keys";

export function useTemplate(projectId: number, templateId: number) {
  return useQuery({
    queryKey: templateKeys.detail(projectId, templateId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/templates/{template_id}", {
          params: { path: { project_id: projectId, template_id: templateId } },
          signal,
        }),
      ),
    retry: false,
  });
}
