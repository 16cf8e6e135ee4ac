import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { repositoryKeys } from "@/features/repositories/api/query-keys";

export function useDeleteRepository(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (repositoryId: number) =>
      unwrap(
        api.DELETE("/api/v1/projects/{project_id}/repositories/{repository_id}", {
          params: { path: { project_id: projectId, repository_id: repositoryId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: repositoryKeys.project(projectId) }),
  });
}
