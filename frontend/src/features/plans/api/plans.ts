import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";

export type Plan = Schemas["PlanRead"];
export type WaitingPlan = Schemas["WaitingPlan"];

const planKey = (projectId: number, runId: number) =>
  ["projects", projectId, "runs", runId, "plan"] as const;

/** What a plan would change, its approval and whether it may be applied now; read again
 * whenever `version` (the run's status) changes. */
export function usePlan(projectId: number, runId: number, version: string) {
  return useQuery({
    queryKey: [...planKey(projectId, runId), version],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/runs/{run_id}/plan", {
          params: { path: { project_id: projectId, run_id: runId } },
          signal,
        }),
      ),
  });
}

/** Launch the plan's apply (the server refuses it, saying why, when anything moved). */
export function useApplyPlan(projectId: number, runId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/runs/{run_id}/apply", {
          params: { path: { project_id: projectId, run_id: runId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["projects", projectId, "runs"] }),
  });
}

/** Approve or reject a plan, with a comment (audited). */
export function useDecidePlan(projectId: number, runId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas["ApprovalCreate"]) =>
      unwrap(
        api.POST("/api/v1/projects/{project_id}/runs/{run_id}/approval", {
          params: { path: { project_id: projectId, run_id: runId } },
          body,
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["approvals"] });
      return queryClient.invalidateQueries({ queryKey: planKey(projectId, runId) });
    },
  });
}

/** The plans waiting for an approval the caller may give, across projects. */
export function useWaitingPlans(limit: number) {
  return useQuery({
    queryKey: ["approvals", "plans", limit],
    queryFn: ({ signal }) =>
      unwrap(api.GET("/api/v1/approvals/plans", { params: { query: { limit } }, signal })),
    refetchInterval: 30_000,
  });
}
