import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { galaxyServerKeys } from "@/features/galaxy/api/query-keys";

export function useDeleteGalaxyServer(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (serverId: number) =>
      unwrap(
        api.DELETE("/api/v1/projects/{project_id}/galaxy-servers/{server_id}", {
          params: { path: { project_id: projectId, server_id: serverId } },
        }),
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: galaxyServerKeys.project(projectId) }),
  });
}
