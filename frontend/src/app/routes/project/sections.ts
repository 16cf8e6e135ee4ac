import { PROJECT_ACTIONS } from "@/lib/permissions";

/**
 * The sections of a project page, in tab order; each is its own lazily loaded page. A section
 * with `requires` shows as a tab only to who holds that project permission (the page itself
 * still answers a typed URL, with the server's refusal).
 */
export const PROJECT_SECTIONS = [
  { path: "templates", label: "Templates", page: () => import("@/app/routes/project/templates") },
  { path: "runs", label: "Runs", page: () => import("@/app/routes/project/runs") },
  { path: "schedules", label: "Schedules", page: () => import("@/app/routes/project/schedules") },
  {
    path: "workflows",
    label: "Workflows",
    page: () => import("@/app/routes/project/workflows"),
    requires: PROJECT_ACTIONS.workflowView,
  },
  { path: "webhooks", label: "Webhooks", page: () => import("@/app/routes/project/webhooks") },
  {
    path: "hosts",
    label: "Hosts",
    page: () => import("@/app/routes/project/hosts"),
    requires: PROJECT_ACTIONS.resourceView,
  },
  {
    path: "inventories",
    label: "Inventories",
    page: () => import("@/app/routes/project/inventories"),
    requires: PROJECT_ACTIONS.resourceView,
  },
  {
    path: "repositories",
    label: "Repositories",
    page: () => import("@/app/routes/project/repositories"),
    requires: PROJECT_ACTIONS.resourceView,
  },
  {
    path: "keys",
    label: "Keys",
    page: () => import("@/app/routes/project/keys"),
    requires: PROJECT_ACTIONS.resourceView,
  },
  {
    path: "environments",
    label: "Environments",
    page: () => import("@/app/routes/project/environments"),
    requires: PROJECT_ACTIONS.resourceView,
  },
  {
    path: "notifications",
    label: "Notifications",
    page: () => import("@/app/routes/project/notifications"),
    requires: PROJECT_ACTIONS.resourceView,
  },
  { path: "drift", label: "Drift", page: () => import("@/app/routes/project/drift") },
  { path: "freezes", label: "Freezes", page: () => import("@/app/routes/project/freezes") },
  {
    path: "members",
    label: "Members",
    page: () => import("@/app/routes/project/members"),
    requires: PROJECT_ACTIONS.membersView,
  },
  {
    path: "audit",
    label: "Audit",
    page: () => import("@/app/routes/project/audit"),
    requires: PROJECT_ACTIONS.auditView,
  },
  {
    path: "settings",
    label: "Settings",
    page: () => import("@/app/routes/project/settings"),
    requires: PROJECT_ACTIONS.edit,
  },
] as const satisfies readonly {
  path: string;
  label: string;
  page: () => Promise<unknown>;
  requires?: string;
}[];
