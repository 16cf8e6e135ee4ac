import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { runKeys } from "@/features/runs/api/query-keys";

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
      queryClient.setQueryData(runKeys.detail(projectId, runId), run);
      void queryClient.invalidateQueries({ queryKey: runKeys.everywhere });
      return queryClient.invalidateQueries({ queryKey: runKeys.project(projectId) });
    },
  });
}

/** Relaunch an ad-hoc command as it was (on all its hosts, or its failed ones): the new run. */
export function useRelaunchAdhoc(projectId: number, runId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (hosts: "all" | "failed") =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/runs/{run_id}/relaunch", {
          params: { path: { project_id: projectId, run_id: runId } },
          body: { hosts },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: runKeys.project(projectId) }),
  });
}

export interface RunLabelValues {
  label: string;
  note: string;
}

/** Set a run's label and note (who may launch its template); every list showing it refreshes. */
export function useLabelRun(projectId: number, runId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RunLabelValues) =>
      unwrap(
        api.PATCH("/api/v1/projects/{project_id}/runs/{run_id}", {
          params: { path: { project_id: projectId, run_id: runId } },
          body,
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: runKeys.everywhere });
      return queryClient.invalidateQueries({ queryKey: runKeys.project(projectId) });
    },
  });
}
