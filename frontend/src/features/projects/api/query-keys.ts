/** Query keys of the projects feature; mutations invalidate by prefix. */
export const projectKeys = {
  all: ["projects"] as const,
  list: (limit: number, offset: number) => ["projects", "list", { limit, offset }] as const,
  detail: (projectId: number) => ["projects", projectId] as const,
  members: (projectId: number) => ["projects", projectId, "members"] as const,
};
