import type { Schemas } from "@/api/client";

export const scheduleKeys = {
  project: (projectId: number) => ["projects", projectId, "schedules"] as const,
  list: (projectId: number, templateId: number | null, limit: number, offset: number) =>
    ["projects", projectId, "schedules", "list", { templateId, limit, offset }] as const,
  detail: (projectId: number, scheduleId: number) =>
    ["projects", projectId, "schedules", scheduleId] as const,
  preview: (projectId: number, scheduleId: number, viewerTz: string, count: number) =>
    ["projects", projectId, "schedules", scheduleId, "preview", { viewerTz, count }] as const,
  draft: (projectId: number, draft: Schemas["DraftPreview"] | null) =>
    ["projects", projectId, "schedules", "draft-preview", draft] as const,
};
