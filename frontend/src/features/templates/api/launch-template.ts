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

/** Launch a plan of a template: the same values as a run, in check and diff mode whatever
 * they say (the template must allow plans). */
export function usePlanTemplate(projectId: number, templateId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (launch: RunCreate) =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/templates/{template_id}/plans", {
          params: { path: { project_id: projectId, template_id: templateId } },
          body: withoutTemplate(launch),
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["projects", projectId, "runs"] }),
  });
}

/** A run launch's body as a plan's: the template is the path's. */
function withoutTemplate(launch: RunCreate): Omit<RunCreate, "template_id"> {
  const body: Partial<RunCreate> = { ...launch };
  delete body.template_id;
  return body as Omit<RunCreate, "template_id">;
}
