export const templateKeys = {
  project: (projectId: number) => ["projects", projectId, "templates"] as const,
  list: (projectId: number, limit: number, offset: number, label?: string) =>
    ["projects", projectId, "templates", "list", { limit, offset, label }] as const,
  detail: (projectId: number, templateId: number) =>
    ["projects", projectId, "templates", templateId] as const,
  grants: (projectId: number, templateId: number) =>
    ["projects", projectId, "templates", templateId, "grants"] as const,
};
