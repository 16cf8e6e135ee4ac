import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { galaxyServerKeys } from "@/features/galaxy/api/query-keys";

export type GalaxyServerCreate = Schemas["GalaxyServerCreate"];

/** Create (no id) or change (id) a Galaxy server; a change sends every field of the form. */
export function useSaveGalaxyServer(projectId: number, serverId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: GalaxyServerCreate) =>
      serverId === null
        ? unwrap(
            api.POST("/api/v1/projects/{project_id}/galaxy-servers", {
              params: { path: { project_id: projectId } },
              body,
            }),
          )
        : unwrap(
            api.PATCH("/api/v1/projects/{project_id}/galaxy-servers/{server_id}", {
              params: { path: { project_id: projectId, server_id: serverId } },
              body,
            }),
          ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: galaxyServerKeys.project(projectId) }),
  });
}
