import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { projectKeys } from "@/features/projects/api/query-keys";

/** Admins only: the project's local directories (PUT /projects/{id}/local-roots, audited). */
export function useSetLocalRoots(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (localRoots: string[]) =>
      unwrap(
        api.PUT("/api/v1/projects/{project_id}/local-roots", {
          params: { path: { project_id: projectId } },
          body: { local_roots: localRoots },
        }),
      ),
    onSuccess: (project) => {
      queryClient.setQueryData(projectKeys.detail(projectId), project);
      return queryClient.invalidateQueries({ queryKey: projectKeys.all });
    },
  });
}
