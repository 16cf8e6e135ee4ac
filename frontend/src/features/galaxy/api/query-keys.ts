export const galaxyServerKeys = {
  project: (projectId: number) => ["projects", projectId, "galaxy-servers"] as const,
  list: (projectId: number, limit: number, offset: number) =>
    ["projects", projectId, "galaxy-servers", "list", { limit, offset }] as const,
};
