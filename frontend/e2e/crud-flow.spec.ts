// The console's create forms end to end against the real server: repository -> inventory (with
// its hosts previewed) -> key -> environment -> template (with a survey) -> launch, and the
// server's 422s shown next to the fields they name. Screenshots of each page, light and dark.
import { type Page, expect, test } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { openAs, screenshot, SHOTS } from "./admin-api.ts";
import { artifacts, repositoryDir } from "./server.ts";

const python = process.env.STEWARD_PYTHON ?? resolve(import.meta.dirname, "../../.venv/bin/python");

async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate(
      (s) => document.documentElement.setAttribute("data-mantine-color-scheme", s),
      scheme,
    );
    await screenshot(page, { path: join(artifacts, `crud-${name}-${scheme}.png`), fullPage: true });
  }
  await page.evaluate(() =>
    document.documentElement.setAttribute("data-mantine-color-scheme", "light"),
  );
}

/** Pick `option` in the Mantine Select labelled `label` inside `scope`. */
async function pick(
  page: Page,
  scope: ReturnType<Page["getByRole"]>,
  label: string,
  option: string,
) {
  await scope.getByRole("textbox", { name: label, exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

test("create repository, inventory, key, environment and template, then launch", async ({
  page,
}) => {
  // a long walk through six forms, with two screenshots at each step (2.7 min seen beside the
  // triggers spec on a machine at load 30)
  test.setTimeout(240_000);
  const dir = repositoryDir("crud-");
  writeFileSync(
    join(dir, "site.yml"),
    "- hosts: all\n  gather_facts: false\n  tasks:\n    - ansible.builtin.debug:\n        msg: hello {{ who }}\n",
  );

  await openAs(page, "/projects");
  await page.getByRole("button", { name: "New project" }).click();
  const projectDialog = page.getByRole("dialog", { name: "New project" });
  await projectDialog.getByLabel("Name").fill("crud-flow");
  await projectDialog.getByRole("button", { name: "Create project" }).click();
  await page.getByRole("link", { name: "crud-flow" }).click();

  // the admin gives the project its local directory: only there may its local repositories be
  // at 1280 px Settings is among the sections in the tab row's More menu
  await page.getByRole("button", { name: /^More sections/ }).click();
  await page.getByRole("menuitem", { name: "Settings" }).click();
  await page.getByRole("textbox", { name: "Directories (admins only)" }).fill(dir);
  await page.getByRole("button", { name: "Save directories" }).click();
  await expect(page.getByText("Local directories of “crud-flow” saved")).toBeVisible();
  await shots(page, "project-local-directories");

  // repository: the server refuses a directory outside the project's local directories, on the field
  await page.getByRole("tab", { name: "Repositories" }).click();
  await page.getByRole("button", { name: "New repository" }).click();
  let dialog = page.getByRole("dialog", { name: "New repository" });
  await dialog.getByRole("textbox", { name: "Name" }).fill("playbooks");
  // a git URL over ssh offers pinned host keys, which the server checks line by line
  await dialog.getByRole("textbox", { name: "URL" }).fill("git@git.example.com:ops.git");
  const hostKeys = dialog.getByRole("textbox", { name: "SSH host keys of the git server" });
  await hostKeys.fill("git.example.com ssh-ed25519");
  await dialog.getByRole("button", { name: "Create repository" }).click();
  await expect(hostKeys).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("line 1 is not a known_hosts line");
  await dialog.getByRole("textbox", { name: "URL" }).fill("https://git.example.com/ops.git");
  await expect(hostKeys).toBeHidden();
  await dialog.getByText("Local directory").click();
  const url = dialog.getByRole("textbox", { name: "Directory on the server" });
  await url.fill("/no/such/dir");
  await dialog.getByRole("button", { name: "Create repository" }).click();
  await expect(url).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("is not inside a local directory of project 'crud-flow'");
  await shots(page, "repository-form-error");
  await url.fill(dir);
  await dialog.getByRole("button", { name: "Create repository" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("table", { name: "Repositories" })).toContainText("playbooks");
  await shots(page, "repositories");

  // inventory: preview the hosts before saving
  await page.getByRole("tab", { name: "Inventories" }).click();
  await page.getByRole("button", { name: "New inventory" }).click();
  dialog = page.getByRole("dialog", { name: "New inventory" });
  await dialog.getByRole("textbox", { name: "Name" }).fill("local");
  await dialog
    .getByRole("textbox", { name: "Content" })
    .fill(`[db]\nlocalhost ansible_connection=local ansible_python_interpreter=${python}\n`);
  await dialog.getByRole("button", { name: "Preview hosts" }).click();
  await expect(dialog.getByRole("status")).toHaveText("1 host in 1 group");
  await expect(dialog.getByRole("table", { name: "Resolved hosts" })).toContainText("localhost");
  await shots(page, "inventory-preview");
  await dialog.getByRole("button", { name: "Create inventory" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("table", { name: "Inventories" })).toContainText("local");
  await shots(page, "inventories");

  // key: a secret value, write-only
  await page.getByRole("tab", { name: "Keys" }).click();
  await page.getByRole("button", { name: "New key" }).click();
  dialog = page.getByRole("dialog", { name: "New key" });
  await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("api-token");
  await pick(page, dialog, "Kind", "Secret value");
  await dialog.getByLabel("Value").fill("t0ken-value");
  await dialog.getByRole("button", { name: "Store key" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("table", { name: "Keys" })).toContainText("api-token");
  await shots(page, "keys");
  await page.getByRole("button", { name: "Edit api-token" }).click();
  dialog = page.getByRole("dialog", { name: "Edit key “api-token”" });
  await expect(dialog.getByLabel("New value")).toHaveValue("");
  await expect(page.locator("body")).not.toContainText("t0ken-value");
  await shots(page, "key-edit");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // environment: a variable and the key as a secret environment variable
  await page.getByRole("tab", { name: "Environments" }).click();
  await page.getByRole("button", { name: "New environment" }).click();
  dialog = page.getByRole("dialog", { name: "New environment" });
  await dialog.getByRole("textbox", { name: "Name" }).fill("prod");
  await dialog.getByRole("textbox", { name: "Extra variables" }).fill("region: eu\n");
  await dialog.getByRole("button", { name: "Add variable" }).click();
  await dialog.getByRole("textbox", { name: "Variable 1 name" }).fill("PGHOST");
  await dialog.getByRole("textbox", { name: "Variable 1 value" }).fill("db1");
  await dialog.getByRole("button", { name: "Add secret" }).click();
  await dialog.getByRole("textbox", { name: "Secret 1 name" }).fill("API_TOKEN");
  await dialog.getByRole("button", { name: "Create environment" }).click();
  // no key picked: the server names secrets[0].key_id, shown on that row's key picker
  await expect(dialog.getByRole("textbox", { name: "Secret 1 key" })).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  await pick(page, dialog, "Secret 1 key", "api-token (secret)");
  await shots(page, "environment-form");
  await dialog.getByRole("button", { name: "Create environment" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("table", { name: "Environments" })).toContainText("1 secret");
  await shots(page, "environments");

  // template: a choice question without choices is refused on its field
  await page.getByRole("tab", { name: "Templates" }).click();
  await page.getByRole("button", { name: "New template" }).click();
  dialog = page.getByRole("dialog", { name: "New template" });
  await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("hello");
  await dialog.getByRole("textbox", { name: "Playbook" }).fill("site.yml");
  await pick(page, dialog, "Repository", "playbooks");
  await pick(page, dialog, "Inventory", "local");
  await pick(page, dialog, "Environment", "prod");
  await dialog.getByRole("checkbox", { name: "Limit" }).check();
  await dialog.getByRole("checkbox", { name: "Check mode" }).check();
  await dialog.getByRole("button", { name: "Add question" }).click();
  const question = dialog.getByRole("group", { name: "Question 1" });
  await question.getByRole("textbox", { name: "Variable" }).fill("who");
  await question.getByRole("textbox", { name: "Label" }).fill("Who to greet");
  await pick(page, question, "Type", "Choice");
  await dialog.getByRole("button", { name: "Create template" }).click();
  const choices = question.getByRole("textbox", { name: "Choices" });
  await expect(choices).toHaveAttribute("aria-invalid", "true");
  await expect(question).toContainText("at least one choice");
  await shots(page, "template-survey-error");
  await choices.fill("world");
  await choices.press("Enter");
  await choices.fill("team");
  await choices.press("Enter");
  await question.getByRole("checkbox", { name: "Required" }).check();
  await dialog.getByRole("button", { name: "Create template" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("table", { name: "Templates" })).toContainText("hello");
  await shots(page, "templates");

  // launch: the allowed overrides and the survey; a required answer is asked for by the server
  await page.getByRole("button", { name: "Launch hello" }).click();
  dialog = page.getByRole("dialog", { name: "Launch “hello”" });
  await expect(dialog.getByRole("textbox", { name: "Limit" })).toBeVisible();
  await expect(dialog.getByRole("textbox", { name: "Tags" })).toHaveCount(0);
  await expect(page).toHaveURL(/\?launch=\d+$/);
  await dialog.getByRole("button", { name: "Launch" }).click();
  await expect(dialog.getByRole("textbox", { name: /Who to greet/ })).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  await pick(page, dialog, "Who to greet", "team");
  await shots(page, "launch-dialog");
  await dialog.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/projects\/\d+\/runs\/\d+$/);
});

test("a project's audit trail lists what was done, with filters", async ({ page }) => {
  await openAs(page, "/projects");
  await page.getByRole("link", { name: "crud-flow" }).click();
  await page.getByRole("button", { name: /^More sections/ }).click();
  await page.getByRole("menuitem", { name: "Audit" }).click();
  const table = page.getByRole("table", { name: "Audit trail" });
  await expect(table).toContainText("template:create");
  await page.getByRole("textbox", { name: "Action" }).fill("inventory");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(table).toContainText("inventory:create");
  await expect(table).not.toContainText("template:create");
  await expect(page.getByRole("link", { name: "Export as JSON lines" })).toHaveAttribute(
    "href",
    /\/api\/v1\/audit\/export\?project_id=\d+&action=inventory/,
  );
  await shots(page, "audit");
});
