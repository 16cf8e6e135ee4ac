import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { keyKeys } from "@/features/keys/api/query-keys";

export function useDeleteKey(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: number) =>
      unwrap(
        api.DELETE("/api/v1/projects/{project_id}/keys/{key_id}", {
          params: { path: { project_id: projectId, key_id: keyId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyKeys.project(projectId) }),
  });
}
