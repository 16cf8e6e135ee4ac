import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";
import { workflowKeys } from "@/features/workflows/api/query-keys";

export function useWorkflows(projectId: number, limit: number, offset: number) {
  return useQuery({
    queryKey: workflowKeys.list(projectId, limit, offset),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/workflows", {
          params: { path: { project_id: projectId }, query: { limit, offset } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useWorkflow(projectId: number, workflowId: number | null) {
  return useQuery({
    queryKey: workflowKeys.detail(projectId, workflowId ?? 0),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/workflows/{workflow_id}", {
          params: { path: { project_id: projectId, workflow_id: workflowId ?? 0 } },
          signal,
        }),
      ),
    enabled: workflowId !== null,
    retry: false,
  });
}
