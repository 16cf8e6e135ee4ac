import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { keyKeys } from "@/features/keys/api/query-keys";

export type KeyCreate =
  | Schemas["SshKeyCreate"]
  | Schemas["LoginPasswordKeyCreate"]
  | Schemas["VaultPasswordKeyCreate"]
  | Schemas["SecretKeyCreate"];

export function useCreateKey(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: KeyCreate) =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/keys", {
          params: { path: { project_id: projectId } },
          body,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyKeys.project(projectId) }),
  });
}
