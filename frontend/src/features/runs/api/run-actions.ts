import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { runKey } from "@/features/runs/api/get-run";

export function useCancelRun(projectId: number, runId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/runs/{run_id}/cancel", {
          params: { path: { project_id: projectId, run_id: runId } },
        }),
      ),
    onSuccess: (run) => {
      queryClient.setQueryData(runKey(projectId, runId), run);
      return queryClient.invalidateQueries({ queryKey: ["runs"] });
    },
  });
}

export function useRelaunchRun(projectId: number, runId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (hosts: "all" | "failed") =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/runs/{run_id}/relaunch", {
          params: { path: { project_id: projectId, run_id: runId } },
          body: { hosts },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["runs"] }),
  });
}
