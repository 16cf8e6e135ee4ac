import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";

/** What a relaunch of the run starts from: its launch values within what the template allows
 * today, the kept secret answers' names and the failed hosts. */
export function useRelaunchValues(projectId: number, runId: number) {
  return useQuery({
    queryKey: ["projects", projectId, "runs", runId, "relaunch"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/runs/{run_id}/relaunch", {
          params: { path: { project_id: projectId, run_id: runId } },
          signal,
        }),
      ),
    retry: false,
    gcTime: 0,
  });
}

/** Relaunch the run with the dialog's values (the run's, changed where the user said). */
export function useRelaunchRun(projectId: number, runId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas["RelaunchRequest"]) =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/runs/{run_id}/relaunch", {
          params: { path: { project_id: projectId, run_id: runId } },
          body,
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["runs"] });
      return queryClient.invalidateQueries({ queryKey: ["projects", projectId, "runs"] });
    },
  });
}
