import { Navigate, createBrowserRouter } from "react-router";
import { RouteError } from "@/app/route-error";
import { PROJECT_SECTIONS } from "@/app/routes/project/sections";

// Every page is its own chunk: the login page loads only what it shows.
export const router = createBrowserRouter([
  {
    ErrorBoundary: RouteError,
    children: [
      { path: "/login", lazy: () => import("@/app/routes/login") },
      {
        path: "/",
        lazy: () => import("@/app/routes/app-layout"),
        children: [
          { index: true, lazy: () => import("@/app/routes/dashboard") },
          { path: "projects", lazy: () => import("@/app/routes/projects") },
          {
            path: "projects/:projectId",
            lazy: () => import("@/app/routes/project/layout"),
            children: [
              { index: true, element: <Navigate to={PROJECT_SECTIONS[0].path} replace /> },
              ...PROJECT_SECTIONS.map((section) => ({ path: section.path, lazy: section.page })),
              { path: "runs/:runId", lazy: () => import("@/app/routes/project/run") },
              { path: "hosts/:host", lazy: () => import("@/app/routes/project/host") },
              { path: "compare-runs", lazy: () => import("@/app/routes/project/compare-runs") },
              {
                path: "templates/:templateId",
                lazy: () => import("@/app/routes/project/template"),
              },
              {
                path: "schedules/:scheduleId",
                lazy: () => import("@/app/routes/project/schedule"),
              },
              { path: "webhooks/:webhookId", lazy: () => import("@/app/routes/project/webhook") },
              {
                path: "workflows/:workflowId",
                lazy: () => import("@/app/routes/project/workflow"),
              },
              {
                path: "workflow-runs/:workflowRunId",
                lazy: () => import("@/app/routes/project/workflow-run"),
              },
              {
                path: "notifications/:destinationId",
                lazy: () => import("@/app/routes/project/destination"),
              },
            ],
          },
          { path: "account", lazy: () => import("@/app/routes/account") },
          { path: "admin/users", lazy: () => import("@/app/routes/admin/users") },
          { path: "admin/teams", lazy: () => import("@/app/routes/admin/teams") },
          { path: "admin/audit", lazy: () => import("@/app/routes/admin/audit") },
          { path: "admin/storage", lazy: () => import("@/app/routes/admin/storage") },
          { path: "admin/freezes", lazy: () => import("@/app/routes/admin/freezes") },
          { path: "admin/hosts", lazy: () => import("@/app/routes/admin/hosts") },
          { path: "approvals", lazy: () => import("@/app/routes/approvals") },
          { path: "*", lazy: () => import("@/app/routes/not-found") },
        ],
      },
    ],
  },
]);
