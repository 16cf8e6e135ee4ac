export const keyKeys = {
  project: (projectId: number) => ["projects", projectId, "keys"] as const,
  list: (projectId: number, limit: number, offset: number) =>
    ["projects", projectId, "keys", "list", { limit, offset }] as const,
};
