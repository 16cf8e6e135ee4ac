import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { environmentKeys } from "@/features/environments/api/query-keys";

export type EnvironmentCreate = Schemas["EnvironmentCreate"];

/** Create (no id) or replace the contents of (id) an environment. */
export function useSaveEnvironment(projectId: number, environmentId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EnvironmentCreate) =>
      environmentId === null
        ? unwrap(
            api.POST("/api/v1/projects/{project_id}/environments", {
              params: { path: { project_id: projectId } },
              body,
            }),
          )
        : unwrap(
            api.PATCH("/api/v1/projects/{project_id}/environments/{environment_id}", {
              params: { path: { project_id: projectId, environment_id: environmentId } },
              body,
            }),
          ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: environmentKeys.project(projectId) }),
  });
}
