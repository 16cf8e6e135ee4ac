export const notificationKeys = {
  project: (projectId: number) => ["projects", projectId, "notifications"] as const,
  destinations: (projectId: number, limit: number, offset: number) =>
    ["projects", projectId, "notifications", "destinations", { limit, offset }] as const,
  destination: (projectId: number, destinationId: number) =>
    ["projects", projectId, "notifications", "destination", destinationId] as const,
  messages: (projectId: number, destinationId: number) =>
    ["projects", projectId, "notifications", "destination", destinationId, "messages"] as const,
  subscriptions: (projectId: number, templateId: number | null, limit: number, offset: number) =>
    [
      "projects",
      projectId,
      "notifications",
      "subscriptions",
      { templateId, limit, offset },
    ] as const,
};
