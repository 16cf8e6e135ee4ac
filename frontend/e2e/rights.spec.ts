// Controls follow the caller's rights: no "New project" for who may not create one, a read-only
// settings page for a viewer who types its URL, Cancel and Relaunch for a `run` grant (which
// the API allows), and row actions that stay on a phone's screen.
import { expect, test } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type AdminApi,
  adminApi,
  assignLocalRoot,
  makeUser,
  overflowing,
  shots,
  openAs,
  PASSWORD,
} from "./admin-api.ts";
import { FINISHED } from "./run-workbench.ts";
import { repositoryDir } from "./server.ts";

const SLOW = `- hosts: all
  gather_facts: false
  tasks:
    - name: wait a while
      ansible.builtin.pause: {seconds: 120}
`;

let api: AdminApi;
// a worker started again after a failure runs beforeAll again: new names then
const tag = Date.now().toString(36);
const VIEWER = `rita-${tag}`;
const GRANTEE = `rory-${tag}`;
const PROJECT = `rights-${tag}`;
let projectId = 0;
let templateId = 0;

test.beforeAll(async ({ baseURL }) => {
  api = await adminApi(baseURL);
  const dir = repositoryDir("rights-");
  writeFileSync(join(dir, "slow.yml"), SLOW);
  const project = await api.send<{ id: number }>("POST", "/api/v1/projects", {
    name: PROJECT,
    description: "What each role may do shows in the console",
  });
  projectId = project.id;
  await assignLocalRoot(api, projectId, dir);
  const url = (path: string) => `/api/v1/projects/${projectId}/${path}`;
  const repository = await api.send<{ id: number }>("POST", url("repositories"), {
    name: "playbooks",
    kind: "local",
    url: dir,
  });
  const inventory = await api.send<{ id: number }>("POST", url("inventories"), {
    name: "local",
    kind: "static",
    format: "ini",
    content: `localhost ansible_connection=local ansible_python_interpreter=${process.env.STEWARD_PYTHON ?? join(import.meta.dirname, "..", "..", ".venv", "bin", "python")}\n`,
  });
  const template = await api.send<{ id: number }>("POST", url("templates"), {
    name: "nightly-database-patching-window",
    playbook: "slow.yml",
    repository_id: repository.id,
    inventory_id: inventory.id,
  });
  templateId = template.id;
  const viewer = await makeUser(api, VIEWER);
  await api.send("PUT", url("members"), { user_id: viewer, role: "viewer" });
  const grantee = await makeUser(api, GRANTEE);
  await api.send("POST", url(`templates/${templateId}/grants`), {
    user_id: grantee,
    permission: "run",
  });
});

test.afterAll(async () => {
  await api.context.dispose();
});

test("who may not create projects sees no New project button", async ({ page }) => {
  await openAs(page, "/projects", VIEWER, PASSWORD);
  await expect(page.getByRole("link", { name: PROJECT })).toBeVisible();
  await expect(page.getByRole("button", { name: "New project" })).toHaveCount(0);
  // no administration for a user either
  await page.getByRole("button", { name: /^Account: / }).click();
  await expect(page.getByRole("menuitem", { name: "API tokens" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Users" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await shots(page, "rights-viewer-projects");
});

test("a viewer typing the settings URL gets a read-only page, not a form that fails", async ({
  page,
}) => {
  await openAs(page, `/projects/${projectId}/settings`, VIEWER, PASSWORD);
  await expect(page.getByText("Read only")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue(PROJECT);
  await expect(page.getByLabel("Name")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete project" })).toHaveCount(0);
  await shots(page, "rights-viewer-settings");
});

test("a run grant shows Cancel on a running run and Relaunch on a finished one", async ({
  page,
}) => {
  const run = await api.send<{ id: number }>("POST", `/api/v1/projects/${projectId}/runs`, {
    template_id: templateId,
  });
  await openAs(page, `/projects/${projectId}/runs/${run.id}`, GRANTEE, PASSWORD);
  await expect(page.getByText("running", { exact: true })).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: "Cancel run" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel run" }).click();
  await expect(page.getByText("canceled", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Relaunch" })).toBeVisible();
  await shots(page, "rights-grantee-run");
  await page.getByRole("button", { name: "Relaunch" }).click();
  await page.getByRole("menuitem", { name: "All hosts" }).click();
  await page
    .getByRole("dialog", { name: `Relaunch run #${run.id}` })
    .getByRole("button", { name: "Relaunch" })
    .click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${run.id}$`));
  const relaunched = Number(page.url().split("/").pop());
  await expect(page.getByRole("heading", { name: new RegExp(`Run #${relaunched}`) })).toBeVisible();
  // stop it: nobody waits two minutes for a pause
  await page.getByRole("button", { name: "Cancel run" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel run" }).click();
  await expect
    .poll(
      async () => {
        const response = await api.context.get(`/api/v1/projects/${projectId}/runs/${relaunched}`);
        return FINISHED.includes(((await response.json()) as { status: string }).status);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
});

test("on a phone, every row action stays on the screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openAs(page, "/projects");
  for (const section of ["templates", "inventories", "repositories"]) {
    await page.goto(`/projects/${projectId}/${section}`);
    await expect(page.getByRole("table")).toBeVisible();
    expect(await overflowing(page), section).toEqual([]);
  }
  await page.goto(`/projects/${projectId}/templates`);
  await expect(
    page.getByRole("button", { name: "Delete nightly-database-patching-window" }),
  ).toBeInViewport();
  await shots(page, "rights-phone-templates");
});
