import { useMutation } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** Ask the server to reach the repository (git ls-remote, or the local directory). */
export function useTestRepository(projectId: number) {
  return useMutation({
    mutationFn: (repositoryId: number) =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/repositories/{repository_id}/test", {
          params: { path: { project_id: projectId, repository_id: repositoryId } },
        }),
      ),
  });
}
