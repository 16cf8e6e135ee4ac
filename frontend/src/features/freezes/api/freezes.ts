import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";

export type FreezeWindow = Schemas["FreezeWindowRead"];
export type FreezeWindowCreate = Schemas["FreezeWindowCreate"];

/** The instance's windows (`projectId` undefined) or a project's own. */
function freezesKey(projectId?: number) {
  return projectId === undefined ? ["freezes", "instance"] : ["projects", projectId, "freezes"];
}

export function useFreezeWindows(projectId?: number) {
  return useQuery({
    queryKey: freezesKey(projectId),
    queryFn: ({ signal }) =>
      projectId === undefined
        ? unwrap(api.GET("/api/v1/freezes", { params: { query: { limit: 500 } }, signal }))
        : unwrap(
            api.GET("/api/v1/projects/{project_id}/freezes", {
              params: { path: { project_id: projectId }, query: { limit: 500 } },
              signal,
            }),
          ),
  });
}

export function useCreateFreezeWindow(projectId?: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FreezeWindowCreate) =>
      projectId === undefined
        ? unwrap(api.POST("/api/v1/freezes", { body }))
        : unwrap(
            api.POST("/api/v1/projects/{project_id}/freezes", {
              params: { path: { project_id: projectId } },
              body,
            }),
          ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: freezesKey(projectId) }),
  });
}

export function useDeleteFreezeWindow(projectId?: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (windowId: number) =>
      projectId === undefined
        ? unwrap(
            api.DELETE("/api/v1/freezes/{window_id}", {
              params: { path: { window_id: windowId } },
            }),
          )
        : unwrap(
            api.DELETE("/api/v1/projects/{project_id}/freezes/{window_id}", {
              params: { path: { project_id: projectId, window_id: windowId } },
            }),
          ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: freezesKey(projectId) }),
  });
}
