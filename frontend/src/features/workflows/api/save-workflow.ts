import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";
import { workflowKeys } from "@/features/workflows/api/query-keys";

/** Create a workflow (workflowId null) or save its whole document: what is shown is stored. */
export function useSaveWorkflow(projectId: number, workflowId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas["WorkflowCreate"]) =>
      workflowId === null
        ? unwrap(
            api.POST("/api/v1/projects/{project_id}/workflows", {
              params: { path: { project_id: projectId } },
              body,
            }),
          )
        : unwrap(
            api.PATCH("/api/v1/projects/{project_id}/workflows/{workflow_id}", {
              params: { path: { project_id: projectId, workflow_id: workflowId } },
              body,
            }),
          ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workflowKeys.project(projectId) }),
  });
}

export function useDeleteWorkflow(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (workflowId: number) =>
      unwrap(
        api.DELETE("/api/v1/projects/{project_id}/workflows/{workflow_id}", {
          params: { path: { project_id: projectId, workflow_id: workflowId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workflowKeys.project(projectId) }),
  });
}

export function useLaunchWorkflow(projectId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (workflowId: number) =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/workflows/{workflow_id}/launch", {
          params: { path: { project_id: projectId, workflow_id: workflowId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workflowKeys.runs(projectId) }),
  });
}
