export const inventoryKeys = {
  project: (projectId: number) => ["projects", projectId, "inventories"] as const,
  list: (projectId: number, limit: number, offset: number) =>
    ["projects", projectId, "inventories", "list", { limit, offset }] as const,
  hosts: (projectId: number, inventoryId: number) =>
    ["projects", projectId, "inventories", inventoryId, "hosts"] as const,
};
