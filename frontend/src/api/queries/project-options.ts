/**
 * The project's resources as picker options: one home for the lists that several features
 * show (a feature may not import another). Each resource is one query, whatever each picker
 * keeps of it, so the pickers of one page share one request and a change to the resource
 * (its feature invalidates `["projects", id, <resource>]`) refreshes them all.
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { type ApiResult, type Schemas, api, unwrap } from "@/api/client";

/** An entry of a select. */
export interface Option {
  value: string;
  label: string;
}

type Key = Schemas["KeyRead"];
type KeyKind = Schemas["KeyKind"];
type Template = Schemas["TemplateRead"];
type TemplatePermission = NonNullable<Template["permissions"]>[number];

// a project holds a few dozen of each: the first 500 are all of them
type ListInit = {
  params: { path: { project_id: number }; query: { limit: number } };
  signal: AbortSignal;
};

function listQuery<T>(
  projectId: number,
  resource: string,
  get: (init: ListInit) => Promise<ApiResult<{ items: T[] }>>,
) {
  return queryOptions({
    queryKey: ["projects", projectId, resource, "options"],
    queryFn: ({ signal }) =>
      unwrap(get({ params: { path: { project_id: projectId }, query: { limit: 500 } }, signal })),
    // options of who may not list a resource stay empty: no retries of a refusal
    retry: false,
  });
}

const lists = {
  keys: (projectId: number) =>
    listQuery(projectId, "keys", (init) => api.GET("/api/v1/projects/{project_id}/keys", init)),
  templates: (projectId: number) =>
    listQuery(projectId, "templates", (init) =>
      api.GET("/api/v1/projects/{project_id}/templates", init),
    ),
  repositories: (projectId: number) =>
    listQuery(projectId, "repositories", (init) =>
      api.GET("/api/v1/projects/{project_id}/repositories", init),
    ),
  inventories: (projectId: number) =>
    listQuery(projectId, "inventories", (init) =>
      api.GET("/api/v1/projects/{project_id}/inventories", init),
    ),
  environments: (projectId: number) =>
    listQuery(projectId, "environments", (init) =>
      api.GET("/api/v1/projects/{project_id}/environments", init),
    ),
  workflows: (projectId: number) =>
    listQuery(projectId, "workflows", (init) =>
      api.GET("/api/v1/projects/{project_id}/workflows", init),
    ),
};

const byName = (items: readonly { id: number; name: string }[]): Option[] =>
  items.map((item) => ({ value: String(item.id), label: item.name }));

/** A key as the pickers show it: its name and its kind. */
export const keyLabel = (key: Key) => `${key.name} (${key.kind})`;

interface KeyOptionsConfig {
  /** how an entry reads (default: name and kind) */
  label?: (key: Key) => string;
  /** the id of the key chosen now: listed even when of another kind, so it still shows */
  keep?: string;
  enabled?: boolean;
}

/** The project's keys of `kinds`, as options: each picker takes some kinds only. */
export function useKeyOptions(
  projectId: number,
  kinds: readonly KeyKind[],
  { label = keyLabel, keep, enabled = true }: KeyOptionsConfig = {},
) {
  return useQuery({
    ...lists.keys(projectId),
    select: (page): Option[] =>
      page.items
        .filter((key) => kinds.includes(key.kind) || String(key.id) === keep)
        .map((key) => ({ value: String(key.id), label: label(key) })),
    enabled,
  });
}

/** Whether the caller holds every one of `permissions` on a template. */
const holding = (permissions: readonly TemplatePermission[]) => (t: Template) =>
  permissions.every((p) => t.permissions?.includes(p) ?? false);

/**
 * The project's templates on which the caller holds every one of `permissions` (none: all of
 * them), with their surveys and overrides.
 */
export function useTemplates(
  projectId: number,
  permissions: readonly TemplatePermission[] = [],
  enabled = true,
) {
  return useQuery({
    ...lists.templates(projectId),
    select: (page) => page.items.filter(holding(permissions)),
    enabled,
  });
}

/** `useTemplates` as options, by name. */
export function useTemplateOptions(
  projectId: number,
  permissions: readonly TemplatePermission[] = [],
  enabled = true,
) {
  return useQuery({
    ...lists.templates(projectId),
    select: (page) => byName(page.items.filter(holding(permissions))),
    enabled,
  });
}

type Counted = "keys" | "repositories" | "inventories" | "templates";
const count = (page: { items: unknown[] }) => page.items.length;

/**
 * How many keys, repositories, inventories and templates the project holds (of `which`; the
 * others are not asked for and stay undefined, as do those the caller may not list): the same
 * queries as the pickers', so a new one counts at once.
 */
export function useHoldings(projectId: number, which: readonly Counted[]) {
  const asked = (resource: Counted) => which.includes(resource);
  const keys = useQuery({ ...lists.keys(projectId), select: count, enabled: asked("keys") });
  const repositories = useQuery({
    ...lists.repositories(projectId),
    select: count,
    enabled: asked("repositories"),
  });
  const inventories = useQuery({
    ...lists.inventories(projectId),
    select: count,
    enabled: asked("inventories"),
  });
  const templates = useQuery({
    ...lists.templates(projectId),
    select: count,
    enabled: asked("templates"),
  });
  return {
    keys: keys.data,
    repositories: repositories.data,
    inventories: inventories.data,
    templates: templates.data,
  };
}

export function useRepositoryOptions(projectId: number, enabled = true) {
  return useQuery({ ...lists.repositories(projectId), select: (p) => byName(p.items), enabled });
}

export function useInventoryOptions(projectId: number, enabled = true) {
  return useQuery({ ...lists.inventories(projectId), select: (p) => byName(p.items), enabled });
}

export function useEnvironmentOptions(projectId: number, enabled = true) {
  return useQuery({ ...lists.environments(projectId), select: (p) => byName(p.items), enabled });
}

export function useWorkflowOptions(projectId: number, enabled = true) {
  return useQuery({ ...lists.workflows(projectId), select: (p) => byName(p.items), enabled });
}

/** One template of the project (its survey, overrides and the caller's permissions on it). */
export function useTemplate(projectId: number, templateId: number | null) {
  return useQuery({
    queryKey: ["projects", projectId, "templates", templateId],
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/v1/projects/{project_id}/templates/{template_id}", {
          params: { path: { project_id: projectId, template_id: templateId ?? 0 } },
          signal,
        }),
      ),
    enabled: templateId !== null,
    retry: false,
  });
}

/**
 * The inventories a launch dialog offers when the template lets the launch pick one; who may
 * run a template but not list inventories still sees the template's own.
 */
export function useLaunchInventoryOptions(projectId: number, template: Template): Option[] {
  const inventories = useInventoryOptions(projectId, template.overridable.includes("inventory_id"));
  return (
    inventories.data ?? [{ value: String(template.inventory_id), label: template.inventory.name }]
  );
}
