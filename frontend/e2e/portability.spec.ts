// Export a project from its settings and import it as a new project from the projects list: the
// dry run's report first (nothing made), then the import, the new project's templates listed
// and what needs attention (its key without a value) said. Desktop width.
import { expect, test } from "@playwright/test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { adminApi, assignLocalRoot, shots, openAs } from "./admin-api.ts";
import { artifacts, repositoryDir } from "./server.ts";

test.use({ viewport: { width: 1440, height: 900 } });

test("export a project, import it under a new name, its templates are there", async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL);
  const dir = repositoryDir("portability-");
  writeFileSync(join(dir, "site.yml"), "- hosts: all\n  gather_facts: false\n  tasks: []\n");
  const project = await api.send<{ id: number }>("POST", "/api/v1/projects", {
    name: "port-source",
  });
  const base = `/api/v1/projects/${project.id}`;
  await assignLocalRoot(api, project.id, dir);
  const repository = await api.send<{ id: number }>("POST", `${base}/repositories`, {
    name: "local",
    kind: "local",
    url: dir,
  });
  const inventory = await api.send<{ id: number }>("POST", `${base}/inventories`, {
    name: "hosts",
    kind: "static",
    format: "ini",
    content: "localhost ansible_connection=local\n",
  });
  await api.send("POST", `${base}/keys`, {
    name: "api-token",
    kind: "secret",
    value: "e2e-secret-never-exported",
  });
  for (const name of ["deploy", "backup"]) {
    await api.send("POST", `${base}/templates`, {
      name,
      playbook: "site.yml",
      repository_id: repository.id,
      inventory_id: inventory.id,
    });
  }

  // export: the settings page downloads the document, which holds no secret
  await openAs(page, `/projects/${project.id}/settings`);
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("steward-port-source.json");
  const file = join(artifacts, "portability-export.json");
  await download.saveAs(file);
  const text = readFileSync(file, "utf8");
  expect(text).not.toContain("e2e-secret-never-exported");
  const document = JSON.parse(text) as { templates: { name: string }[]; keys: object[] };
  expect(document.templates.map((t) => t.name)).toEqual(["backup", "deploy"]);
  expect(document.keys).toEqual([{ name: "api-token", description: "", kind: "secret" }]);

  // import: the dry run's report first, nothing made yet
  await page.goto("/projects");
  await page.getByRole("button", { name: "Import project" }).click();
  const dialog = page.getByRole("dialog", { name: "Import project" });
  await dialog.locator('input[type="file"]').setInputFiles(file);
  const name = dialog.getByRole("textbox", { name: "Name of the new project" });
  await expect(name).toHaveValue("port-source");
  await dialog.getByRole("button", { name: "Check" }).click();
  // the document's own name is taken: the server's 409 is shown
  await expect(dialog).toContainText("already exists");
  await name.fill("port-copy");
  await dialog.getByRole("button", { name: "Check" }).click();
  const report = dialog.getByRole("alert").filter({ hasText: "Dry run" });
  await expect(report).toContainText("Dry run: nothing is made yet");
  await expect(report).toContainText("1 key, 1 repository, 1 inventory, 2 templates");
  await expect(report).toContainText("key “api-token”: needs a value");
  await shots(page, "portability-dry-run");
  const projects = await api.send<{ items: { name: string }[] }>("GET", "/api/v1/projects");
  expect(projects.items.map((p) => p.name)).not.toContain("port-copy");

  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/projects\/\d+\/templates$/);
  await expect(page.getByRole("link", { name: "deploy", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "backup", exact: true })).toBeVisible();
  await expect(page.getByText("Project “port-copy” imported")).toBeVisible();
  await expect(page.getByText("1 thing needs attention: key “api-token”")).toBeVisible();
  await shots(page, "portability-imported");
  await api.context.dispose();
});
