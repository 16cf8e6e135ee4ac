import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { projectKeys } from "@/features/projects/api/query-keys";

export type ProjectUpdate = Schemas["ProjectUpdate"];

export function useUpdateProject(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProjectUpdate) =>
      unwrap(
        api.PATCH("/api/v1/projects/{project_id}", {
          params: { path: { project_id: projectId } },
          body,
        }),
      ),
    onSuccess: (project) => {
      queryClient.setQueryData(projectKeys.detail(projectId), project);
      return queryClient.invalidateQueries({ queryKey: projectKeys.all });
    },
  });
}
