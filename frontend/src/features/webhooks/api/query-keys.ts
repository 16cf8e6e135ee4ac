export const webhookKeys = {
  project: (projectId: number) => ["projects", projectId, "webhooks"] as const,
  list: (projectId: number, templateId: number | null, limit: number, offset: number) =>
    ["projects", projectId, "webhooks", "list", { templateId, limit, offset }] as const,
  detail: (projectId: number, webhookId: number) =>
    ["projects", projectId, "webhooks", webhookId] as const,
  deliveries: (projectId: number, webhookId: number) =>
    ["projects", projectId, "webhooks", webhookId, "deliveries"] as const,
  delivery: (projectId: number, webhookId: number, deliveryId: number) =>
    ["projects", projectId, "webhooks", webhookId, "deliveries", deliveryId] as const,
};
