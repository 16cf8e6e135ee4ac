// The approvals inbox and the instance audit page, against the real server: an approval the
// admin's workflow run waits for is counted in an operator's navigation and listed on their
// dashboard with a link to decide it; a failed sign-in is listed on the admin's audit page (the
// instance's own records). Its own project, users and names: independent of other specs.
import { expect, test } from "@playwright/test";
import { type AdminApi, adminApi, makeUser, openAs, pageShot, PASSWORD } from "./admin-api.ts";

const tag = Date.now().toString(36);
const PROJECT = `inbox-${tag}`;
const OPERATOR = `inbox-op-${tag}`;
const NOBODY = `inbox-nobody-${tag}`;
const GATE = `patch prod? ${tag}`;

let api: AdminApi;
let projectId = 0;
let workflowRunId = 0;

test.beforeAll(async ({ baseURL }) => {
  api = await adminApi(baseURL);
  projectId = (await api.send<{ id: number }>("POST", "/api/v1/projects", { name: PROJECT })).id;
  const url = (path: string) => `/api/v1/projects/${projectId}/${path}`;
  const operator = await makeUser(api, OPERATOR);
  await api.send("PUT", url("members"), { user_id: operator, role: "operator" });
  const workflow = await api.send<{ id: number }>("POST", url("workflows"), {
    name: `gated-${tag}`,
    nodes: [{ key: "gate", kind: "approval", name: GATE, timeout_seconds: 3600 }],
  });
  // launched by the admin: the approval wants someone else, the operator
  workflowRunId = (await api.send<{ id: number }>("POST", url(`workflows/${workflow.id}/launch`)))
    .id;
  const failed = await api.context.post("/api/v1/auth/login", {
    data: { username: NOBODY, password: "not-the-password" },
  });
  expect(failed.status()).toBe(401);
});

test.afterAll(async () => {
  await api.context.dispose();
});

test("the badge counts a waiting approval and the dashboard links to its decision", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openAs(page, "/projects", OPERATOR, PASSWORD);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByTestId("approvals-count")).toHaveText("1");
  await nav.getByRole("link", { name: /^Approvals/ }).click();
  const table = page.getByRole("table", { name: "Approvals waiting for you" });
  await expect(table.getByRole("row").filter({ hasText: GATE })).toContainText("by admin");
  await pageShot(page, "approvals-inbox");

  await page.goto("/");
  const card = page.getByRole("region", { name: "Waiting for your approval" });
  await expect(card).toContainText(GATE);
  await pageShot(page, "approvals-dashboard-card");
  await card.getByRole("link", { name: new RegExp(`^Decide .* #${workflowRunId}$`) }).click();
  await expect(page).toHaveURL(
    new RegExp(`/projects/${projectId}/workflow-runs/${workflowRunId}$`),
  );
  await page.getByRole("button", { name: "Approve gate" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(dialog).toBeHidden();
  await expect(nav.getByTestId("approvals-count")).toHaveCount(0); // decided: nothing waits
});

test("the admin's audit page lists a failed sign-in of the instance", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openAs(page, "/projects");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit" }).click();
  await expect(page.getByRole("heading", { name: "Audit" })).toBeVisible();
  // the audit stream's card: this server streams to no SIEM, and says how to
  await expect(page.getByText("Not streamed to a SIEM.")).toBeVisible();
  const filters = page.getByRole("form", { name: "Audit filters" });
  await filters.getByLabel("Text").fill(NOBODY);
  await filters.getByLabel(/Only the instance's own records/).check();
  await filters.getByRole("button", { name: "Filter" }).click();
  const trail = page.getByRole("table", { name: "Audit trail" });
  // (one row per failed attempt: the spec's sign-in may be tried more than once)
  const failed = trail.getByRole("row").filter({ hasText: "auth:login_failed" });
  await expect(failed.filter({ hasText: NOBODY }).first()).toBeVisible();
  await expect(filters.getByRole("link", { name: "Export as CSV" })).toHaveAttribute(
    "href",
    /\/api\/v1\/audit\/export\.csv\?.*instance=true/,
  );
  await pageShot(page, "admin-audit");
});
