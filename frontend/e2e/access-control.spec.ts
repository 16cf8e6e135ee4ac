// What each role sees: a viewer gets no launch button and the server's 403 when launching
// through the URL; a run-only grantee sees its one template and can launch it. Users, roles
// and grants are made through the API as admin.
import { type APIRequestContext, type Page, expect, test } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { artifacts, repositoryDir } from "./server.ts";
import { screenshot, SHOTS } from "./admin-api.ts";

const PASSWORD = "access-e2e-password";

interface Setup {
  projectId: number;
  granted: number;
  other: number;
}

async function admin(request: APIRequestContext) {
  const login = await request.post("/api/v1/auth/login", {
    data: { username: "admin", password: process.env.STEWARD_E2E_PASSWORD ?? "" },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const { csrf_token } = (await login.json()) as { csrf_token: string };
  const send = async (method: "post" | "put", url: string, data: unknown) => {
    const response = await request[method](url, { data, headers: { "X-CSRF-Token": csrf_token } });
    expect(response.ok(), `${url}: ${await response.text()}`).toBe(true);
    return (await response.json()) as { id: number };
  };
  return send;
}

let setup: Setup;

test.beforeAll(async ({ playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  const send = await admin(request);
  const dir = repositoryDir("access-");
  writeFileSync(join(dir, "site.yml"), "- hosts: all\n  gather_facts: false\n  tasks: []\n");

  const project = await send("post", "/api/v1/projects", { name: "access-control" });
  const url = (path: string) => `/api/v1/projects/${project.id}/${path}`;
  await send("put", url("local-roots"), { local_roots: [dir] });
  const repository = await send("post", url("repositories"), {
    name: "r",
    kind: "local",
    url: dir,
  });
  const inventory = await send("post", url("inventories"), {
    name: "local",
    kind: "static",
    format: "ini",
    content: "localhost ansible_connection=local\n",
  });
  const template = (name: string) =>
    send("post", url("templates"), {
      name,
      playbook: "site.yml",
      repository_id: repository.id,
      inventory_id: inventory.id,
    });
  const granted = await template("granted-one");
  const other = await template("not-granted");

  const viewer = await send("post", "/api/v1/users", {
    username: "vera-viewer",
    password: PASSWORD,
  });
  await send("put", url("members"), { user_id: viewer.id, role: "viewer" });
  const grantee = await send("post", "/api/v1/users", {
    username: "gus-grantee",
    password: PASSWORD,
  });
  await send("post", url(`templates/${granted.id}/grants`), {
    user_id: grantee.id,
    permission: "run",
    hosts: ["localhost"], // a host-scoped grant: the launch dialog says so
  });
  await request.dispose();
  setup = { projectId: project.id, granted: granted.id, other: other.id };
});

async function signIn(page: Page, username: string) {
  await page.goto("/login?next=/projects"); // the first screen is the dashboard
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
}

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const scheme of ["light", "dark"] as const) {
    await page.evaluate(
      (s) => document.documentElement.setAttribute("data-mantine-color-scheme", s),
      scheme,
    );
    await screenshot(page, {
      path: join(artifacts, `access-${name}-${scheme}.png`),
      fullPage: true,
    });
  }
  await page.evaluate(() =>
    document.documentElement.setAttribute("data-mantine-color-scheme", "light"),
  );
}

test("a viewer sees no launch button, and launching through the URL gets the server's 403", async ({
  page,
}) => {
  await signIn(page, "vera-viewer");
  await page.getByRole("link", { name: "access-control" }).click();
  const templates = page.getByRole("table", { name: "Templates" });
  await expect(templates).toContainText("granted-one");
  await expect(templates).toContainText("not-granted");
  await expect(page.getByRole("button", { name: /^Launch / })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Edit / })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "New template" })).toHaveCount(0);
  await expect(page.getByRole("tab", { name: "Settings" })).toHaveCount(0);
  await expect(page.getByRole("tab", { name: "Audit" })).toHaveCount(0);
  await expect(page.getByRole("tab", { name: "Inventories" })).toBeVisible();
  await shots(page, "viewer-templates");

  await page.getByRole("tab", { name: "Inventories" }).click();
  await expect(page.getByRole("table", { name: "Inventories" })).toContainText("local");
  await expect(page.getByRole("button", { name: "New inventory" })).toHaveCount(0);

  await page.goto(`/projects/${setup.projectId}/templates?launch=${setup.other}`);
  const dialog = page.getByRole("dialog", { name: "Launch “not-granted”" });
  await expect(dialog).toContainText("You may not launch this template");
  await dialog.getByRole("button", { name: "Launch" }).click();
  await expect(dialog.getByRole("alert").last()).toContainText(/permission|not allowed|may not/i);
  await shots(page, "viewer-launch-403");

  // and the API says 403 itself
  const csrf = await page.evaluate(() => sessionStorage.getItem("steward.csrf") ?? "");
  const response = await page.request.post(`/api/v1/projects/${setup.projectId}/runs`, {
    data: { template_id: setup.other, launch_type: "ui" },
    headers: { "X-CSRF-Token": csrf },
  });
  expect(response.status()).toBe(403);
});

test("a run-only grantee sees only its template, and may launch it", async ({ page }) => {
  await signIn(page, "gus-grantee");
  await page.getByRole("link", { name: "access-control" }).click();
  const templates = page.getByRole("table", { name: "Templates" });
  await expect(templates).toContainText("granted-one");
  await expect(templates).not.toContainText("not-granted");
  await expect(page.getByRole("button", { name: "Launch granted-one" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Edit granted-one" })).toHaveCount(0);
  // Drift too: the drift of the templates whose runs it sees; the freezes its launches meet
  await expect(page.getByRole("tab")).toHaveText([
    "Templates",
    "Runs",
    "Schedules",
    "Webhooks",
    "Drift",
    "Freezes",
  ]);
  await shots(page, "grantee-templates");

  await page.getByRole("button", { name: "Launch granted-one" }).click();
  const dialog = page.getByRole("dialog", { name: "Launch “granted-one”" });
  await expect(dialog).toContainText("You may run this on: localhost");
  await dialog.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${setup.projectId}/runs/\\d+$`));
});

test("an owner picks members and grantees by name; on a phone the forms still fit", async ({
  page,
}) => {
  await page.goto("/login?next=/projects"); // the first screen is the dashboard
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(process.env.STEWARD_E2E_PASSWORD ?? "");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  await page.goto(`/projects/${setup.projectId}/members`);
  await page.getByRole("textbox", { name: "User", exact: true }).fill("gus");
  await page.getByRole("option", { name: "gus-grantee" }).click();
  await page.getByRole("textbox", { name: "Role" }).click();
  await page.getByRole("option", { name: "operator" }).click();
  await page.getByRole("button", { name: "Add or change" }).click();
  const members = page.getByRole("table", { name: "Members" });
  await expect(members.getByRole("row", { name: /gus-grantee/ })).toContainText("operator");
  await shots(page, "members");

  await page.goto(`/projects/${setup.projectId}/templates`);
  await page.getByRole("button", { name: "Access to granted-one" }).click();
  const grants = page.getByRole("dialog", { name: "Access to “granted-one”" });
  await expect(grants.getByRole("table", { name: "Grants" })).toContainText("gus-grantee");
  const hosts = grants.getByRole("textbox", { name: "Hosts of gus-grantee" });
  await expect(grants.getByRole("row", { name: /gus-grantee/ })).toContainText("localhost");
  await hosts.fill("dev");
  await hosts.press("Enter");
  await expect(grants.getByRole("row", { name: /gus-grantee/ })).toContainText("dev");
  await shots(page, "grants");
  await grants
    .getByRole("button", { name: "Close" })
    .or(grants.locator(".mantine-Modal-close"))
    .first()
    .click();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "New template" }).click();
  await expect(page.getByRole("dialog", { name: "New template" })).toBeVisible();
  await shots(page, "phone-template-form");
});

test("a second tab of a signed-in browser needs no second sign-in, and can change things", async ({
  page,
  context,
}) => {
  await page.goto("/login?next=/projects"); // the first screen is the dashboard
  await page.getByLabel("Username").fill("vera-viewer");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();

  const tab = await context.newPage();
  await tab.goto(`/projects/${setup.projectId}/templates`);
  await expect(tab.getByRole("table", { name: "Templates" })).toContainText("granted-one");
  // a state-changing request: the CSRF token came with the session, so the server's own
  // answer (403: a viewer may not launch) is what shows, not a CSRF refusal
  await tab.goto(`/projects/${setup.projectId}/templates?launch=${setup.other}`);
  const dialog = tab.getByRole("dialog", { name: "Launch “not-granted”" });
  await dialog.getByRole("button", { name: "Launch" }).click();
  await expect(dialog.getByRole("alert").last()).toContainText("run:launch");
});
