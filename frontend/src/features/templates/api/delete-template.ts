import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { templateKeys } from "@/features/templates/api/query-keys";

export function useDeleteTemplate(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (templateId: number) =>
      unwrap(
        api.DELETE("/api/v1/projects/{project_id}/templates/{template_id}", {
          params: { path: { project_id: projectId, template_id: templateId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.project(projectId) }),
  });
}
