import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { keyKeys } from "@/features/keys/api/query-keys";

export type KeyUpdate = Schemas["KeyUpdate"];

export function useUpdateKey(projectId: number, keyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: KeyUpdate) =>
      unwrap(
        api.PATCH("/api/v1/projects/{project_id}/keys/{key_id}", {
          params: { path: { project_id: projectId, key_id: keyId } },
          body,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyKeys.project(projectId) }),
  });
}
