export const environmentKeys = {
  project: (projectId: number) => ["projects", projectId, "environments"] as const,
  list: (projectId: number, limit: number, offset: number) =>
    ["projects", projectId, "environments", "list", { limit, offset }] as const,
};
