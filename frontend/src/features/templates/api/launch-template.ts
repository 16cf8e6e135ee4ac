import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** Launch with the template's defaults. TODO(templates UI): overrides and survey at launch. */
export function useLaunchTemplate(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (templateId: number) =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/runs", {
          params: { path: { project_id: projectId } },
          body: { template_id: templateId, launch_type: "ui" },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["runs"] }),
  });
}
