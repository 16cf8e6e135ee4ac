/** Every URL of the console, built in one place. */
export const paths = {
  home: () => "/",
  projects: () => "/projects",
  login: (next?: string) =>
    next && next !== "/" ? `/login?next=${encodeURIComponent(next)}` : "/login",
  account: (tab?: "password" | "two-factor" | "tokens" | "sessions") =>
    tab ? `/account?tab=${tab}` : "/account",
  adminUsers: () => "/admin/users",
  adminTeams: () => "/admin/teams",
  adminAudit: () => "/admin/audit",
  adminStorage: () => "/admin/storage",
  adminFreezes: () => "/admin/freezes",
  adminHosts: () => "/admin/hosts",
  approvals: () => "/approvals",
  project: (projectId: number, section?: string) =>
    section ? `/projects/${projectId}/${section}` : `/projects/${projectId}`,
  run: (projectId: number, runId: number) => `/projects/${projectId}/runs/${runId}`,
  host: (projectId: number, host: string) =>
    `/projects/${projectId}/hosts/${encodeURIComponent(host)}`,
  compareRuns: (projectId: number, runIds: readonly number[]) =>
    `/projects/${projectId}/compare-runs?runs=${runIds.join(",")}`,
  template: (
    projectId: number,
    templateId: number,
    tab?: "schedules" | "webhooks" | "notifications",
  ) => `/projects/${projectId}/templates/${templateId}${tab ? `?tab=${tab}` : ""}`,
  schedule: (projectId: number, scheduleId: number) =>
    `/projects/${projectId}/schedules/${scheduleId}`,
  webhook: (projectId: number, webhookId: number) => `/projects/${projectId}/webhooks/${webhookId}`,
  workflow: (projectId: number, workflowId: number | "new") =>
    `/projects/${projectId}/workflows/${workflowId}`,
  workflowRun: (projectId: number, workflowRunId: number) =>
    `/projects/${projectId}/workflow-runs/${workflowRunId}`,
  destination: (projectId: number, destinationId: number) =>
    `/projects/${projectId}/notifications/${destinationId}`,
};
