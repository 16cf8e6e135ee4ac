import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { environmentKeys } from "@/features/environments/api/query-keys";

export function useDeleteEnvironment(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (environmentId: number) =>
      unwrap(
        api.DELETE("/api/v1/projects/{project_id}/environments/{environment_id}", {
          params: { path: { project_id: projectId, environment_id: environmentId } },
        }),
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: environmentKeys.project(projectId) }),
  });
}
