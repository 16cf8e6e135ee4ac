import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

/** The project's `secret` keys: a webhook's shared secret is one of them. */
export function useSecretKeys(projectId: number) {
  return useQuery({
    queryKey: ["projects", projectId, "keys", "options"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/keys", {
          params: { path: { project_id: projectId }, query: { limit: 500 } },
          signal,
        }),
      ),
    select: (page) =>
      page.items
        .filter((key) => key.kind === "secret")
        .map((key) => ({ value: String(key.id), label: key.name })),
    retry: false,
  });
}

/** Templates a webhook may be made for: the caller may change and launch them. */
export function useHookableTemplates(projectId: number, enabled: boolean) {
  return useQuery({
    queryKey: ["projects", projectId, "templates", "options"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/templates", {
          params: { path: { project_id: projectId }, query: { limit: 500 } },
          signal,
        }),
      ),
    select: (page) =>
      page.items
        .filter((t) => t.permissions?.includes("write") && t.permissions.includes("run"))
        .map((t) => ({ value: String(t.id), label: t.name })),
    enabled,
  });
}

/** The permissions of a webhook's template (view, run, write): what its page offers. */
export function useTemplatePermissions(projectId: number, templateId: number | null) {
  return useQuery({
    queryKey: ["projects", projectId, "templates", templateId],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/templates/{template_id}", {
          params: { path: { project_id: projectId, template_id: templateId ?? 0 } },
          signal,
        }),
      ),
    select: (template) => template.permissions ?? [],
    enabled: templateId !== null,
    retry: false,
  });
}

/** The project's workflows, by name: what a webhook may launch instead of a template. */
export function useWorkflowOptions(projectId: number, enabled: boolean) {
  return useQuery({
    queryKey: ["projects", projectId, "workflows", "options"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/workflows", {
          params: { path: { project_id: projectId }, query: { limit: 500 } },
          signal,
        }),
      ),
    select: (page) => page.items.map((w) => ({ value: String(w.id), label: w.name })),
    enabled,
    retry: false,
  });
}
