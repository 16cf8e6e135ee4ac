/** The sections of a project page, in tab order; each is its own lazily loaded page. */
export const PROJECT_SECTIONS = [
  { path: "templates", label: "Templates", page: () => import("@/app/routes/project/templates") },
  { path: "runs", label: "Runs", page: () => import("@/app/routes/project/runs") },
  {
    path: "inventories",
    label: "Inventories",
    page: () => import("@/app/routes/project/inventories"),
  },
  {
    path: "repositories",
    label: "Repositories",
    page: () => import("@/app/routes/project/repositories"),
  },
  { path: "keys", label: "Keys", page: () => import("@/app/routes/project/keys") },
  {
    path: "environments",
    label: "Environments",
    page: () => import("@/app/routes/project/environments"),
  },
  { path: "members", label: "Members", page: () => import("@/app/routes/project/members") },
  { path: "settings", label: "Settings", page: () => import("@/app/routes/project/settings") },
] as const;
