// Requirements (issue 14) in the console, against the real server: a project's Galaxy servers
// made, checked and changed in its settings (the key picker offers only token and
// login-and-password keys; a name ansible-galaxy cannot read is refused before sending), and a
// template's "Install requirements" switch and Ansible environment picker, read back through the
// API. At desktop and phone width, with screenshots.
import { type Page, expect, test } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type AdminApi,
  adminApi,
  assignLocalRoot,
  overflowing,
  shots,
  openAs,
} from "./admin-api.ts";
import { repositoryDir } from "./server.ts";

let api: AdminApi;
const tag = Date.now().toString(36);
const PROJECT = `requirements-${tag}`;
const TEMPLATE = "site";
let projectId = 0;
let templateId = 0;
let tokenKeyId = 0;

const url = (path: string) => `/api/v1/projects/${projectId}/${path}`;

interface Server {
  id: number;
  name: string;
  url: string;
  auth_url: string;
  key_id: number | null;
  validate_certs: boolean;
  position: number;
}

test.beforeAll(async ({ baseURL }) => {
  api = await adminApi(baseURL);
  const dir = repositoryDir("requirements-");
  writeFileSync(join(dir, "site.yml"), "- hosts: all\n  gather_facts: false\n  tasks: []\n");
  projectId = (await api.send<{ id: number }>("POST", "/api/v1/projects", { name: PROJECT })).id;
  await assignLocalRoot(api, projectId, dir);
  const repository = await api.send<{ id: number }>("POST", url("repositories"), {
    name: "playbooks",
    kind: "local",
    url: dir,
  });
  const inventory = await api.send<{ id: number }>("POST", url("inventories"), {
    name: "local",
    kind: "static",
    format: "ini",
    content: "localhost ansible_connection=local\n",
  });
  templateId = (
    await api.send<{ id: number }>("POST", url("templates"), {
      name: TEMPLATE,
      playbook: "site.yml",
      repository_id: repository.id,
      inventory_id: inventory.id,
    })
  ).id;
  tokenKeyId = (
    await api.send<{ id: number }>("POST", url("keys"), {
      name: "hub-token",
      kind: "secret",
      value: "t0ken",
    })
  ).id;
  await api.send("POST", url("keys"), {
    name: "pulp-login",
    kind: "login_password",
    username: "pulp",
    password: "pulp-pass",
  });
  await api.send("POST", url("keys"), { name: "vault", kind: "vault_password", password: "v" });
});

test.afterAll(async () => {
  await api.context.dispose();
});

const servers = async () =>
  (await api.send<{ items: Server[] }>("GET", url("galaxy-servers"))).items;
const template = () =>
  api.send<{ install_requirements: boolean; ansible_venv: string }>(
    "GET",
    url(`templates/${templateId}`),
  );

async function editTemplate(page: Page) {
  await page.goto(`/projects/${projectId}/templates`);
  await page.getByRole("button", { name: `Edit ${TEMPLATE}` }).click();
  return page.getByRole("dialog", { name: `Edit template “${TEMPLATE}”` });
}

test("a Galaxy server made and changed in settings; the template's requirements switch", async ({
  page,
}) => {
  await openAs(page, `/projects/${projectId}/settings`);
  // none yet: ansible-galaxy's default, said in place of the table
  await expect(page.getByText("No Galaxy servers: requirements come from")).toBeVisible();
  await page.getByRole("button", { name: "New Galaxy server" }).click();
  const dialog = page.getByRole("dialog", { name: "New Galaxy server" });
  const name = dialog.getByRole("textbox", { name: "Name" });
  await name.fill("Red-Hat");
  await dialog
    .getByRole("textbox", { name: "URL", exact: true })
    .fill("https://hub.example.com/api/");
  await dialog.getByRole("textbox", { name: "SSO URL" }).fill("https://sso.example.com/token");
  // only what ansible-galaxy can authenticate with
  await dialog.getByRole("textbox", { name: "Key" }).click();
  await expect(page.getByRole("option")).toHaveText([
    "hub-token (token)",
    "pulp-login (login and password)",
  ]);
  await page.getByRole("option", { name: "hub-token (token)" }).click();
  await dialog.getByRole("switch", { name: "Validate certificates" }).uncheck();
  await dialog.getByRole("textbox", { name: "Position" }).fill("3");
  await dialog.getByRole("button", { name: "Create server" }).click();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("Lowercase letters, digits and _, starting with a letter");
  expect(await servers()).toEqual([]);
  await shots(page, "requirements-galaxy-form-error");
  await name.fill("rh_hub");
  await dialog.getByRole("button", { name: "Create server" }).click();
  await expect(dialog).toBeHidden();
  const table = page.getByRole("table", { name: "Galaxy servers" });
  await expect(table).toContainText("rh_hub");
  await expect(table).toContainText("certificates not checked");
  expect(await servers()).toMatchObject([
    {
      name: "rh_hub",
      url: "https://hub.example.com/api/",
      auth_url: "https://sso.example.com/token",
      key_id: tokenKeyId,
      validate_certs: false,
      position: 3,
    },
  ]);

  // edit: an emptied SSO URL goes as null, which clears it; the key stays
  await page.getByRole("button", { name: "Edit rh_hub" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Galaxy server “rh_hub”" });
  await edit.getByRole("textbox", { name: "SSO URL" }).fill("");
  await edit.getByRole("textbox", { name: "Position" }).fill("1");
  await edit.getByRole("switch", { name: "Validate certificates" }).check();
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(table).not.toContainText("certificates not checked");
  expect(await servers()).toMatchObject([
    { name: "rh_hub", auth_url: "", key_id: tokenKeyId, validate_certs: true, position: 1 },
  ]);
  await shots(page, "requirements-galaxy-servers");

  // the template: on by default, the server's own Ansible with its version
  expect(await template()).toMatchObject({ install_requirements: true, ansible_venv: "" });
  const form = await editTemplate(page);
  const install = form.getByRole("switch", { name: "Install requirements" });
  await expect(install).toBeChecked();
  const venv = form.getByRole("textbox", { name: "Ansible environment" });
  await expect(venv).toHaveValue(/^The server's own \((ansible-core \d+\.\d+|version unknown)/);
  await install.uncheck();
  await shots(page, "requirements-template-form");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form).toBeHidden();
  expect(await template()).toMatchObject({ install_requirements: false, ansible_venv: "" });
});

test("on a phone: the Galaxy servers fit, one is deleted; the switch goes back on", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openAs(page, `/projects/${projectId}/settings`);
  const table = page.getByRole("table", { name: "Galaxy servers" });
  await expect(table).toContainText("rh_hub");
  expect(await overflowing(page)).toEqual([]);
  await page.getByRole("button", { name: "New Galaxy server" }).click();
  const dialog = page.getByRole("dialog", { name: "New Galaxy server" });
  await expect(dialog.getByRole("button", { name: "Create server" })).toBeInViewport();
  await shots(page, "requirements-galaxy-form-phone");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Delete rh_hub" }).click();
  await page
    .getByRole("dialog", { name: "Delete Galaxy server “rh_hub”?" })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(page.getByText("No Galaxy servers: requirements come from")).toBeVisible();
  expect(await servers()).toEqual([]);
  await shots(page, "requirements-galaxy-servers-phone");

  const form = await editTemplate(page);
  const install = form.getByRole("switch", { name: "Install requirements" });
  await expect(install).not.toBeChecked();
  await install.check();
  await shots(page, "requirements-template-form-phone");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form).toBeHidden();
  expect(await template()).toMatchObject({ install_requirements: true });
});
