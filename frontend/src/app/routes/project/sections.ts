/**
 * The sections of a project page, in tab order. Sections whose API is not there yet show a
 * placeholder; each becomes its own page module when its endpoints land.
 */
const comingLater = () => import("@/app/routes/project/coming-later");

export const PROJECT_SECTIONS = [
  { path: "templates", label: "Templates", page: comingLater }, // TODO(templates API)
  { path: "runs", label: "Runs", page: comingLater }, // TODO(runs API)
  { path: "inventories", label: "Inventories", page: comingLater }, // TODO(inventories API)
  { path: "repositories", label: "Repositories", page: comingLater }, // TODO(repositories API)
  { path: "keys", label: "Keys", page: comingLater }, // TODO(keys API)
  { path: "environments", label: "Environments", page: comingLater }, // TODO(environments API)
  { path: "members", label: "Members", page: () => import("@/app/routes/project/members") },
  { path: "settings", label: "Settings", page: () => import("@/app/routes/project/settings") },
] as const;
