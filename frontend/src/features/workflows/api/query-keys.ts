export const workflowKeys = {
  project: (projectId: number) => ["projects", projectId, "workflows"] as const,
  list: (projectId: number, limit: number, offset: number) =>
    ["projects", projectId, "workflows", "list", { limit, offset }] as const,
  detail: (projectId: number, workflowId: number) =>
    ["projects", projectId, "workflows", workflowId] as const,
  runs: (projectId: number) => ["projects", projectId, "workflow-runs"] as const,
  runList: (projectId: number, workflowId: number | null, beforeId: number | null) =>
    ["projects", projectId, "workflow-runs", "list", { workflowId, beforeId }] as const,
  run: (projectId: number, workflowRunId: number) =>
    ["projects", projectId, "workflow-runs", workflowRunId] as const,
};
