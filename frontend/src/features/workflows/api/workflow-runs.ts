import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { approvalsKey } from "@/features/workflows/api/get-approvals";
import { workflowKeys } from "@/features/workflows/api/query-keys";

/** Newest first, a page of `limit` older than `beforeId` (null: the newest). */
export function useWorkflowRuns(
  projectId: number,
  workflowId: number | null,
  beforeId: number | null,
  limit = 25,
) {
  return useQuery({
    queryKey: workflowKeys.runList(projectId, workflowId, beforeId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/workflow-runs", {
          params: {
            path: { project_id: projectId },
            query: {
              limit,
              ...(workflowId !== null ? { workflow_id: workflowId } : {}),
              ...(beforeId !== null ? { before_id: beforeId } : {}),
            },
          },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((w) => w.status === "running") ? 2000 : false,
  });
}

/** One workflow run, polled every second while it runs. */
export function useWorkflowRun(projectId: number, workflowRunId: number) {
  return useQuery({
    queryKey: workflowKeys.run(projectId, workflowRunId),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/workflow-runs/{workflow_run_id}", {
          params: { path: { project_id: projectId, workflow_run_id: workflowRunId } },
          signal,
        }),
      ),
    retry: false,
    refetchInterval: (query) => (query.state.data?.status === "running" ? 1000 : false),
  });
}

export type Verdict = "approve" | "deny";

export function useDecide(projectId: number, workflowRunId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, verdict, comment }: { key: string; verdict: Verdict; comment: string }) => {
      const params = {
        path: { project_id: projectId, workflow_run_id: workflowRunId, key },
      };
      const body = { comment };
      return verdict === "approve"
        ? unwrap(
            api.POST(
              "/api/v1/projects/{project_id}/workflow-runs/{workflow_run_id}/nodes/{key}/approve",
              { params, body },
            ),
          )
        : unwrap(
            api.POST(
              "/api/v1/projects/{project_id}/workflow-runs/{workflow_run_id}/nodes/{key}/deny",
              { params, body },
            ),
          );
    },
    onSuccess: (read) => {
      queryClient.setQueryData(workflowKeys.run(projectId, workflowRunId), read);
      void queryClient.invalidateQueries({ queryKey: approvalsKey }); // the inbox's count
      return queryClient.invalidateQueries({ queryKey: workflowKeys.runs(projectId) });
    },
  });
}

export function useCancelWorkflowRun(projectId: number, workflowRunId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/workflow-runs/{workflow_run_id}/cancel", {
          params: { path: { project_id: projectId, workflow_run_id: workflowRunId } },
        }),
      ),
    onSuccess: (read) => {
      queryClient.setQueryData(workflowKeys.run(projectId, workflowRunId), read);
      return queryClient.invalidateQueries({ queryKey: workflowKeys.runs(projectId) });
    },
  });
}
