import { type Page, expect, test } from "@playwright/test";
import { join } from "node:path";
import { artifacts } from "./server.ts";
import { screenshot } from "./admin-api.ts";

const shot = (page: Page, name: string) =>
  screenshot(page, { path: join(artifacts, `${name}.png`), fullPage: true });

async function signIn(page: Page) {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(process.env.STEWARD_E2E_PASSWORD ?? "");
  await page.getByRole("button", { name: "Sign in" }).click();
  // the first screen is the dashboard; the projects moved to /projects
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await page.goto("/projects");
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
}

test("serves the console for client routes, and problem+json for unknown API paths", async ({
  request,
}) => {
  const page = await request.get("/projects/12345/members");
  expect(page.status()).toBe(200);
  expect(page.headers()["content-type"]).toContain("text/html");
  expect(page.headers()["cache-control"]).toBe("no-cache");

  const api = await request.get("/api/v1/no-such-thing");
  expect(api.status()).toBe(404);
  expect(api.headers()["content-type"]).toContain("application/problem+json");
});

test("a wrong password is refused on the form", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("invalid username or password");
  await expect(page).toHaveURL(/\/login$/);
});

test("admin signs in, creates a project, sees it listed, switches theme, signs out", async ({
  page,
}) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await shot(page, "01-login-light");

  await signIn(page);

  // the server's 422 lands next to the field it names
  await page.getByRole("button", { name: "New project" }).click();
  const dialog = page.getByRole("dialog", { name: "New project" });
  await dialog.getByRole("button", { name: "Create project" }).click();
  const name = dialog.getByLabel("Name");
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("at least 1 character");
  await shot(page, "02-create-project-field-error");

  await name.fill("db-patching");
  await dialog.getByLabel("Description").fill("Monthly patching of the database VMs");
  await dialog.getByRole("button", { name: "Create project" }).click();
  await expect(dialog).toBeHidden();
  const table = page.getByRole("table", { name: "Projects" });
  await expect(table.getByRole("link", { name: "db-patching" })).toBeVisible();
  await shot(page, "03-projects-light");

  // a second project of the same name: the server's 409 shows on the form
  await page.getByRole("button", { name: "New project" }).click();
  await dialog.getByLabel("Name").fill("db-patching");
  await dialog.getByRole("button", { name: "Create project" }).click();
  await expect(dialog.getByRole("alert")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();

  await table.getByRole("link", { name: "db-patching" }).click();
  await expect(page.getByRole("heading", { name: "db-patching" })).toBeVisible();
  // at 1280 px Members is among the sections in the tab row's More menu
  await page.getByRole("button", { name: /^More sections/ }).click();
  await page.getByRole("menuitem", { name: "Members" }).click();
  await expect(page).toHaveURL(/\/projects\/\d+\/members$/);
  await expect(page.getByRole("table", { name: "Members" })).toContainText("owner");

  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  await shot(page, "04-project-members-dark");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  await expect(page.getByRole("table", { name: "Members" })).toBeVisible();

  await page.getByRole("link", { name: "Projects" }).first().click();
  await expect(table).toBeVisible();
  await shot(page, "05-projects-dark");

  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
});

test("a key's secret is sent once and never shown again", async ({ page }) => {
  await signIn(page);
  await page.getByRole("button", { name: "New project" }).click();
  const projectDialog = page.getByRole("dialog", { name: "New project" });
  await projectDialog.getByLabel("Name").fill("key-store");
  await projectDialog.getByRole("button", { name: "Create project" }).click();
  await page.getByRole("link", { name: "key-store" }).click();
  await page.getByRole("tab", { name: "Keys" }).click();
  await expect(page.getByText("No keys yet.")).toBeVisible();

  await page.getByRole("button", { name: "New key" }).click();
  const dialog = page.getByRole("dialog", { name: "New key" });
  await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("deploy");
  await dialog.getByLabel("Private key").fill("not a key");
  await dialog.getByRole("button", { name: "Store key" }).click();
  // checked by the server, shown on the field
  await expect(dialog.getByLabel("Private key")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("not a private key");

  await dialog.getByRole("textbox", { name: "Kind" }).click();
  await page.getByRole("option", { name: "Secret value" }).click();
  await dialog.getByLabel("Value").fill("s3cr3t-value");
  await dialog.getByRole("button", { name: "Store key" }).click();
  await expect(dialog).toBeHidden();
  const keys = page.getByRole("table", { name: "Keys" });
  await expect(keys).toContainText("deploy");
  await expect(keys).toContainText("Secret value");
  await expect(keys).toContainText("set");
  await expect(page.locator("body")).not.toContainText("s3cr3t-value");
  await shot(page, "06-project-keys");

  for (const section of ["Templates", "Runs", "Inventories", "Repositories", "Environments"]) {
    await page.getByRole("tab", { name: section }).click();
    await expect(page.getByText(`No ${section.toLowerCase()} yet.`)).toBeVisible();
  }
});

test("on a phone the navigation folds behind a menu button", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  const navigation = page.getByRole("navigation", { name: "Main" });
  await expect(navigation).not.toBeInViewport();
  await shot(page, "07-phone-projects");
  await page.getByRole("button", { name: "Open navigation" }).click();
  await expect(navigation).toBeInViewport();
  await shot(page, "08-phone-navigation");
  await page.goto("/no-such-page");
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await shot(page, "09-phone-not-found");
});
