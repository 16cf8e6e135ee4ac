import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";

export type RunCreate = Schemas["RunCreate"];

/** Launch a run of a template, with the overrides it allows and the survey's answers. */
export function useLaunchTemplate(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RunCreate) =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/runs", {
          params: { path: { project_id: projectId } },
          body,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["projects", projectId, "runs"] }),
  });
}
