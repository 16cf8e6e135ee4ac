// Guided setup against the real server: an empty project opens on Templates, whose empty state
// says what a template needs first with a link to each; the links open the create dialogs of
// their sections. From inside the template form a key, a repository and an inventory are
// created in dialogs above it, each selected on save, nothing typed in the form lost; the
// template saves with them. The project's tabs never hide: at 1280 px and on a phone the ones
// that do not fit are in a "More" menu. Screenshots at 1280 and 390 px in test-artifacts/.
import { type Page, expect, test } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type AdminApi,
  adminApi,
  assignLocalRoot,
  navigationGone,
  openAs,
  pageShot,
  screenshot,
  SHOTS,
} from "./admin-api.ts";
import { artifacts, repositoryDir } from "./server.ts";

// the project's sections an admin sees (src/app/routes/project/sections.ts)
const PROJECT_SECTIONS = 16;

const tag = Date.now().toString(36);
const PROJECT = `guided-${tag}`;

let api: AdminApi;
let projectId = 0;
let dir = "";

test.beforeAll(async ({ baseURL }) => {
  api = await adminApi(baseURL);
  dir = repositoryDir("guided-");
  writeFileSync(join(dir, "site.yml"), "- hosts: all\n  gather_facts: false\n  tasks: []\n");
  projectId = (await api.send<{ id: number }>("POST", "/api/v1/projects", { name: PROJECT })).id;
  await assignLocalRoot(api, projectId, dir);
});

test.afterAll(async () => {
  await api.context.dispose();
});

const shot = (page: Page, name: string) =>
  screenshot(page, { path: join(artifacts, `guided-${name}.png`), fullPage: true });

/** The page at phone width, then back at 1280, a screenshot at each (only with SHOTS). */
async function bothWidths(page: Page, name: string) {
  if (!SHOTS) return;
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
  await navigationGone(page);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

// a long walk (one sign-in for all of it); on a busy machine it can pass the default minute
test.setTimeout(120_000);

test("an empty project says what comes first; the template form creates what it needs in place; tabs fold into More", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openAs(page, `/projects/${projectId}`);
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/templates$`));

  // the steps, in order, each with its link
  const steps = page.getByRole("list", { name: "What comes first" });
  await expect(page.getByText("No templates yet.")).toBeVisible();
  await expect(steps.getByRole("listitem")).toHaveText([
    /^A key, if the git server or the hosts need a login.*New key$/,
    /^A repository: .*New repository$/,
    /^An inventory: .*New inventory$/,
    /^Then the template .*New template$/,
  ]);
  await pageShot(page, "guided-empty-project");

  // a link opens its section with the create dialog; that section says what it needs first
  await steps.getByRole("link", { name: "New repository" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/repositories\\?new=1$`));
  const repositoryDialog = page.getByRole("dialog", { name: "New repository" });
  await expect(repositoryDialog).toBeVisible();
  await repositoryDialog.getByRole("button", { name: "Cancel" }).click();
  await expect(repositoryDialog).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/repositories$`));
  await expect(page.getByText("No repositories yet.")).toBeVisible();
  await expect(page.getByText("A private git server needs a key first")).toBeVisible();
  await expect(
    page.getByRole("list", { name: "What comes first" }).getByRole("link", { name: "New key" }),
  ).toHaveAttribute("href", `/projects/${projectId}/keys?new=1`);
  await shot(page, "repositories-empty-1280");

  // the template's own link: its form, with a name typed first (kept through what follows)
  await page
    .getByRole("tablist", { name: "Project sections" })
    .getByRole("tab", { name: "Templates" })
    .click();
  await steps.getByRole("link", { name: "New template" }).click();
  const form = page.getByRole("dialog", { name: "New template" });
  const name = form.getByRole("textbox", { name: "Name", exact: true });
  await name.fill("deploy-site");
  await form.getByRole("textbox", { name: "Description" }).fill("typed before anything else");

  // Escape closes the dialog on top only: the template form stays, as typed
  await form.getByRole("button", { name: "New machine key" }).click();
  const keyDialog = page.getByRole("dialog", { name: "New key" });
  await expect(keyDialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(keyDialog).toHaveCount(0);
  await expect(name).toHaveValue("deploy-site");

  // a key for the machine: the dialog offers the kinds the field takes
  await form.getByRole("button", { name: "New machine key" }).click();
  await keyDialog.getByRole("textbox", { name: "Kind" }).click();
  await expect(page.getByRole("option")).toHaveText(["SSH private key", "Login and password"]);
  await page.getByRole("option", { name: "Login and password" }).click();
  await keyDialog.getByRole("textbox", { name: "Name", exact: true }).fill("deployer");
  await keyDialog.getByRole("textbox", { name: "Username" }).fill("deploy");
  await keyDialog.getByLabel("Password").fill("s3cret-pass");
  await pageShot(page, "guided-create-in-place");
  await keyDialog.getByRole("button", { name: "Store key" }).click();
  await expect(keyDialog).toHaveCount(0);
  await expect(form.getByRole("textbox", { name: "Machine key" })).toHaveValue(
    "deployer (login_password)",
  );

  // a repository: a directory on the server
  await form.getByRole("button", { name: "New repository" }).click();
  await expect(repositoryDialog).toBeVisible();
  await repositoryDialog.getByRole("textbox", { name: "Name" }).fill("site-playbooks");
  await repositoryDialog.getByText("Local directory").click();
  await repositoryDialog.getByRole("textbox", { name: "Directory on the server" }).fill(dir);
  await bothWidths(page, "new-repository-over-template");
  await repositoryDialog.getByRole("button", { name: "Create repository" }).click();
  await expect(repositoryDialog).toHaveCount(0);
  await expect(form.getByRole("textbox", { name: "Repository", exact: true })).toHaveValue(
    "site-playbooks",
  );

  // an inventory: static text
  await form.getByRole("button", { name: "New inventory" }).click();
  const inventoryDialog = page.getByRole("dialog", { name: "New inventory" });
  await inventoryDialog.getByRole("textbox", { name: "Name" }).fill("web-hosts");
  await inventoryDialog.getByRole("textbox", { name: "Content" }).fill("web1.example.com\n");
  await inventoryDialog.getByRole("button", { name: "Create inventory" }).click();
  await expect(inventoryDialog).toHaveCount(0);
  await expect(form.getByRole("textbox", { name: "Inventory", exact: true })).toHaveValue(
    "web-hosts",
  );

  // nothing typed in the form was lost; it saves with what was made in place
  await expect(name).toHaveValue("deploy-site");
  await expect(form.getByRole("textbox", { name: "Description" })).toHaveValue(
    "typed before anything else",
  );
  await form.getByRole("textbox", { name: "Playbook" }).fill("site.yml");
  await form.getByRole("button", { name: "Create template" }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByRole("table", { name: "Templates" })).toContainText("deploy-site");

  const url = (path: string) => `/api/v1/projects/${projectId}/${path}`;
  type Named = { id: number; name: string };
  const keys = (await api.send<{ items: Named[] }>("GET", url("keys"))).items;
  expect(keys.map((k) => k.name)).toEqual(["deployer"]);
  const templates = await api.send<{ items: unknown[] }>("GET", url("templates"));
  // saved with the key, the repository and the inventory made from inside its form
  expect(templates.items).toMatchObject([
    {
      name: "deploy-site",
      description: "typed before anything else",
      ssh_key_id: keys[0]?.id,
      repository: { name: "site-playbooks" },
      inventory: { name: "web-hosts" },
    },
  ]);
  // the control: the empty state is gone once a template exists
  await expect(page.getByRole("list", { name: "What comes first" })).toHaveCount(0);

  // the project's tabs never hide: those that do not fit are in More, at 1280 px and on a phone
  const tabs = page.getByRole("tablist", { name: "Project sections" });
  const more = page.getByRole("button", { name: /^More sections/ });

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
    await page.goto(`/projects/${projectId}/templates`);
    await expect(tabs.getByRole("tab", { name: "Templates" })).toBeVisible();
    await expect(more).toBeVisible();
    // every tab in the row is whole within the window; the row does not scroll
    expect(await tabs.evaluate((list) => list.scrollWidth <= list.clientWidth + 1)).toBe(true);
    const inRow = await tabs.getByRole("tab").allTextContents();
    for (const label of inRow) {
      await expect(tabs.getByRole("tab", { name: label })).toBeInViewport({ ratio: 1 });
    }
    const box = await more.boundingBox();
    expect(box && box.x + box.width <= width, "More within the window").toBe(true);
    await more.click();
    const menu = page.getByRole("menu");
    await expect(menu.getByRole("menuitem", { name: "Settings" })).toBeVisible();
    const folded = await menu.getByRole("menuitem").allTextContents();
    // the row and the menu hold every section once
    expect(new Set([...inRow, ...folded]).size).toBe(PROJECT_SECTIONS);
    expect(inRow.length + folded.length).toBe(PROJECT_SECTIONS);
    expect(folded).toContain("Settings");
    await pageShot(page, "project-tabs-more", [width]);
    await menu.getByRole("menuitem", { name: "Settings" }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/settings$`));
    // the open section, folded in More, is named on its button
    await expect(
      page.getByRole("button", { name: "More sections (Settings is open)" }),
    ).toBeVisible();
  }
  // the phone shows fewer tabs in the row than the desktop did (the control: it did fold more)
  const phoneRow = await tabs.getByRole("tab").count();
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect.poll(() => tabs.getByRole("tab").count()).toBeGreaterThan(phoneRow);
});

test("an environment's secret takes a key created in place", async ({ page }) => {
  const project = `${PROJECT}-env`;
  const id = (await api.send<{ id: number }>("POST", "/api/v1/projects", { name: project })).id;
  await page.setViewportSize({ width: 1280, height: 800 });
  await openAs(page, `/projects/${id}/environments`);
  await page.getByRole("button", { name: "New environment" }).click();
  const form = page.getByRole("dialog", { name: "New environment" });
  await form.getByRole("textbox", { name: "Name", exact: true }).fill("prod");
  await form.getByRole("button", { name: "Add secret" }).click();
  await form.getByRole("textbox", { name: "Secret 1 name" }).fill("DB_PASSWORD");

  await form.getByRole("button", { name: "New key" }).click();
  const keyDialog = page.getByRole("dialog", { name: "New key" });
  // the kinds a secret takes, one value each (no SSH key)
  await keyDialog.getByRole("textbox", { name: "Kind" }).click();
  await expect(page.getByRole("option")).toHaveText([
    "Login and password",
    "Vault password",
    "Secret value",
  ]);
  await page.getByRole("option", { name: "Secret value" }).click();
  await keyDialog.getByRole("textbox", { name: "Name", exact: true }).fill("db-pass");
  await keyDialog.getByLabel("Value").fill("hunter2-in-place");
  await keyDialog.getByRole("button", { name: "Store key" }).click();
  await expect(keyDialog).toHaveCount(0);
  // the secret without a key took it; what was typed stayed
  await expect(form.getByRole("textbox", { name: "Secret 1 key" })).toHaveValue("db-pass (secret)");
  await expect(form.getByRole("textbox", { name: "Secret 1 name" })).toHaveValue("DB_PASSWORD");
  await form.getByRole("button", { name: "Create environment" }).click();
  await expect(form).toHaveCount(0);

  type Named = { id: number; name: string };
  const keys = (await api.send<{ items: Named[] }>("GET", `/api/v1/projects/${id}/keys`)).items;
  const environments = await api.send<{ items: unknown[] }>(
    "GET",
    `/api/v1/projects/${id}/environments`,
  );
  expect(environments.items).toMatchObject([
    { name: "prod", secrets: [{ name: "DB_PASSWORD", target: "env", key_id: keys[0]?.id }] },
  ]);
});
