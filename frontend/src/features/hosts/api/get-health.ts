import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The host's latest health check per inventory and its checks of the last `days`. */
export function useHostHealth(projectId: number, host: string, days: number) {
  return useQuery({
    queryKey: ["hosts", projectId, "health", host, days],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/hosts/{host}/health", {
          params: { path: { project_id: projectId, host }, query: { days } },
          signal,
        }),
      ),
  });
}

/** Check the host now (in every inventory that lists it); its health is read again. */
export function useCheckHost(projectId: number, host: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/hosts/{host}/health", {
          params: { path: { project_id: projectId, host } },
        }),
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: ["hosts", projectId, "health", host] }),
  });
}

/** Every project's hosts' health (admins): the counts, the last periodic pass, and a page of
 * the hosts whose latest check failed. */
export function useInstanceHealth(page: number, pageSize: number) {
  const query = { failing: true, limit: pageSize, offset: (page - 1) * pageSize };
  return useQuery({
    queryKey: ["hosts", "all", "health", query],
    queryFn: ({ signal }) => unwrap(api.GET("/api/v1/hosts/health", { params: { query }, signal })),
  });
}
