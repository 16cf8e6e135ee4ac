import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "@/api/client";

// Pickers of the template form and the launch dialog: a project holds a few dozen of each.
const ALL = { limit: 500 } as const;

export interface Choice {
  value: string;
  label: string;
}

export function useRepositoryChoices(projectId: number, enabled = true) {
  return useQuery({
    queryKey: ["projects", projectId, "repositories", "options"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/repositories", {
          params: { path: { project_id: projectId }, query: ALL },
          signal,
        }),
      ),
    select: (page): Choice[] => page.items.map((r) => ({ value: String(r.id), label: r.name })),
    enabled,
  });
}

export function useInventoryChoices(projectId: number, enabled = true) {
  return useQuery({
    queryKey: ["projects", projectId, "inventories", "options"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/inventories", {
          params: { path: { project_id: projectId }, query: ALL },
          signal,
        }),
      ),
    select: (page): Choice[] => page.items.map((i) => ({ value: String(i.id), label: i.name })),
    enabled,
    retry: false,
  });
}

export function useEnvironmentChoices(projectId: number) {
  return useQuery({
    queryKey: ["projects", projectId, "environments", "options"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/environments", {
          params: { path: { project_id: projectId }, query: ALL },
          signal,
        }),
      ),
    select: (page): Choice[] => page.items.map((e) => ({ value: String(e.id), label: e.name })),
  });
}

/** Keys with their kind: each picker of the form takes some kinds only. */
export function useKeyChoices(projectId: number) {
  return useQuery({
    queryKey: ["projects", projectId, "keys", "options"],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/keys", {
          params: { path: { project_id: projectId }, query: ALL },
          signal,
        }),
      ),
    select: (page) => page.items,
  });
}
