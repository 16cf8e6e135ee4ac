export const repositoryKeys = {
  project: (projectId: number) => ["projects", projectId, "repositories"] as const,
  list: (projectId: number, limit: number, offset: number) =>
    ["projects", projectId, "repositories", "list", { limit, offset }] as const,
};
