import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { repositoryKeys } from "@/features/repositories/api/query-keys";

/** Ask the server to reach the repository (git ls-remote, or the local directory); the server
 * keeps the outcome as its last check, so the list is read again either way. */
export function useTestRepository(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (repositoryId: number) =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/repositories/{repository_id}/test", {
          params: { path: { project_id: projectId, repository_id: repositoryId } },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: repositoryKeys.project(projectId) }),
  });
}
