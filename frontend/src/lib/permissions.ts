/**
 * What the caller may do, as the server lists it: `ProjectRead.permissions` holds project-wide
 * actions (`policy.Action` values), `TemplateRead.permissions` the words view/run/write.
 * The server still decides: these only hide controls that would be refused.
 */
export const PROJECT_ACTIONS = {
  edit: "project:edit",
  membersView: "project:members:view",
  membersManage: "project:members",
  resourceView: "resource:view",
  resourceWrite: "resource:write",
  templateWrite: "template:write",
  runLaunch: "run:launch",
  runCancel: "run:cancel",
  workflowView: "workflow:view",
  workflowWrite: "workflow:write",
  auditView: "audit:view",
  adhocRun: "adhoc:run",
} as const;

export type ProjectAction = (typeof PROJECT_ACTIONS)[keyof typeof PROJECT_ACTIONS];

export function can(permissions: readonly string[] | undefined, action: string): boolean {
  return permissions?.includes(action) ?? false;
}
