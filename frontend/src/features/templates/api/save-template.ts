import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { templateKeys } from "@/features/templates/api/query-keys";

export type TemplateCreate = Schemas["TemplateCreate"];

/** Create (no id) or change (id) a template; the form sends every field. */
export function useSaveTemplate(projectId: number, templateId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TemplateCreate) =>
      templateId === null
        ? unwrap(
            api.POST("/api/v1/projects/{project_id}/templates", {
              params: { path: { project_id: projectId } },
              body,
            }),
          )
        : unwrap(
            api.PATCH("/api/v1/projects/{project_id}/templates/{template_id}", {
              params: { path: { project_id: projectId, template_id: templateId } },
              body,
            }),
          ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.project(projectId) }),
  });
}
