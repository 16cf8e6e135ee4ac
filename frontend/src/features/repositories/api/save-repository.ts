import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { repositoryKeys } from "@/features/repositories/api/query-keys";

export type RepositoryCreate = Schemas["RepositoryCreate"];

export interface SaveRepository {
  body: RepositoryCreate;
  /** the server reaches it first (git ls-remote, the ref resolved) and saves nothing if it can't */
  check: boolean;
}

/** Create (no id) or change (id) a repository; both take the whole form as the body. */
export function useSaveRepository(projectId: number, repositoryId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, check }: SaveRepository) =>
      repositoryId === null
        ? unwrap(
            api.POST("/api/v1/projects/{project_id}/repositories", {
              params: { path: { project_id: projectId }, query: { check } },
              body,
            }),
          )
        : unwrap(
            api.PATCH("/api/v1/projects/{project_id}/repositories/{repository_id}", {
              params: {
                path: { project_id: projectId, repository_id: repositoryId },
                query: { check },
              },
              body,
            }),
          ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: repositoryKeys.project(projectId) }),
  });
}
