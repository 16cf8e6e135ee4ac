import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type Schemas, api, unwrap } from "@/api/client";

export type AdhocBody = Schemas["AdhocCreate"];

/** The modules an ad-hoc command may run here (the server's allow-list). */
export function useAdhocModules(projectId: number) {
  return useQuery({
    queryKey: ["projects", projectId, "adhoc", "modules"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/adhoc/modules", {
          params: { path: { project_id: projectId } },
          signal,
        }),
      ),
  });
}

/** Queue an ad-hoc command on the inventory's hosts: the run it starts. */
export function useRunAdhoc(projectId: number, inventoryId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdhocBody) =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/inventories/{inventory_id}/adhoc", {
          params: { path: { project_id: projectId, inventory_id: inventoryId } },
          body,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["projects", projectId, "runs"] }),
  });
}
