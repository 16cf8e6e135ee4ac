import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap, type Schemas } from "@/api/client";

export type Plan = Schemas["PlanRead"];
export type PlanTaskEntry = Schemas["PlanTaskEntry"];
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

/** A page of tasks (and of one task's hosts) asked at a time. */
export const PLAN_PAGE = 50;

/** The plan's tasks, unknowns first, a page at a time (each with its host count; its diffs:
 * `usePlanTaskHosts`). */
export function usePlanTasks(projectId: number, runId: number, version: string) {
  return useInfiniteQuery({
    queryKey: [...planKey(projectId, runId), "tasks", version],
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/runs/{run_id}/plan/tasks", {
          params: {
            path: { project_id: projectId, run_id: runId },
            query: { after: pageParam, limit: PLAN_PAGE },
          },
          signal,
        }),
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next_after ?? undefined,
  });
}

/** One task's results with their diffs, a page at a time; asked once `enabled` (expanded). */
export function usePlanTaskHosts(projectId: number, runId: number, task: number, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: [...planKey(projectId, runId), "task", task],
    queryFn: ({ pageParam, signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/runs/{run_id}/plan/tasks/{task}/hosts", {
          params: {
            path: { project_id: projectId, run_id: runId, task },
            query: { after: pageParam, limit: PLAN_PAGE },
          },
          signal,
        }),
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next_after ?? undefined,
    enabled,
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

export type ProjectDrift = Schemas["ProjectDrift"];
export type TemplateDrift = Schemas["TemplateDriftRead"];
export type HostDrift = Schemas["HostDrift"];

const DRIFT_REFRESH_MS = 30_000;
const driftKey = (projectId: number) => ["projects", projectId, "drift"] as const;

/** The project's drifted templates and hosts (what a scheduled plan found). */
export function useProjectDrift(projectId: number) {
  return useQuery({
    queryKey: [...driftKey(projectId), "all"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/drift", {
          params: { path: { project_id: projectId } },
          signal,
        }),
      ),
    refetchInterval: DRIFT_REFRESH_MS,
  });
}

/** One template's drift, with its tasks and diffs. */
export function useTemplateDrift(projectId: number, templateId: number) {
  return useQuery({
    queryKey: [...driftKey(projectId), "template", templateId],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/templates/{template_id}/drift", {
          params: { path: { project_id: projectId, template_id: templateId } },
          signal,
        }),
      ),
    refetchInterval: DRIFT_REFRESH_MS,
  });
}

/** The drifted templates that would change one host. */
export function useHostDrift(projectId: number, host: string) {
  return useQuery({
    queryKey: [...driftKey(projectId), "host", host],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/hosts/{host}/drift", {
          params: { path: { project_id: projectId, host } },
          signal,
        }),
      ),
    refetchInterval: DRIFT_REFRESH_MS,
  });
}
