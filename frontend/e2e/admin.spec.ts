// Administration in the console: an admin creates users, resets a password, makes and unmakes
// admins, disables and enables; makes teams and puts people in them. At desktop and phone width.
import { expect, test } from "@playwright/test";
import { type AdminApi, adminApi, overflowing, shots, openAs } from "./admin-api.ts";

let api: AdminApi;

test.beforeAll(async ({ baseURL }) => {
  api = await adminApi(baseURL);
});

test.afterAll(async () => {
  await api.context.dispose();
});

test("an admin creates a user, resets the password, makes and unmakes admin, disables", async ({
  page,
  browser,
}) => {
  await openAs(page, "/projects");
  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: "Users" }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  const users = page.getByRole("table", { name: "Users" });
  await expect(users).toContainText("admin");

  await page.getByRole("button", { name: "New user" }).click();
  const dialog = page.getByRole("dialog", { name: "New user" });
  await dialog.getByLabel("Username").fill("dana-dba");
  await dialog.getByLabel("Display name").fill("Dana the DBA");
  await dialog.getByLabel("Password").fill("short");
  await dialog.getByRole("button", { name: "Create user" }).click();
  // the server's rule, on its field
  await expect(dialog).toContainText("at least 8 characters");
  await dialog.getByLabel("Password").fill("first-password-123");
  await dialog.getByRole("button", { name: "Create user" }).click();
  await expect(dialog).toBeHidden();
  const dana = users.getByRole("row", { name: /dana-dba/ });
  await expect(dana).toContainText("Dana the DBA");
  await shots(page, "admin-users");

  await dana.getByRole("button", { name: "Actions for dana-dba" }).click();
  await page.getByRole("menuitem", { name: "Reset password" }).click();
  const reset = page.getByRole("dialog", { name: /Reset the password/ });
  await reset.getByLabel("New password").fill("second-password-456");
  await reset.getByRole("button", { name: "Set password" }).click();
  await expect(reset).toBeHidden();
  // the new password works
  const other = await browser.newContext();
  const login = await other.request.post("/api/v1/auth/login", {
    data: { username: "dana-dba", password: "second-password-456" },
  });
  expect(login.status()).toBe(200);

  await dana.getByRole("button", { name: "Actions for dana-dba" }).click();
  await page.getByRole("menuitem", { name: "Make admin" }).click();
  await expect(dana).toContainText("admin");
  await dana.getByRole("button", { name: "Actions for dana-dba" }).click();
  await page.getByRole("menuitem", { name: "Remove admin" }).click();
  await expect(dana.getByText("admin", { exact: true })).toHaveCount(0);

  await dana.getByRole("button", { name: "Actions for dana-dba" }).click();
  await page.getByRole("menuitem", { name: "Disable" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Disable" }).click();
  await expect(dana).toContainText("disabled");
  // signed out at once
  expect((await other.request.get("/api/v1/auth/me")).status()).toBe(401);
  await dana.getByRole("button", { name: "Actions for dana-dba" }).click();
  await page.getByRole("menuitem", { name: "Enable" }).click();
  await expect(dana).not.toContainText("disabled");
  await other.close();

  // the last admin cannot demote itself: the server says why
  await users
    .getByRole("row", { name: /admin \(you\)/ })
    .getByRole("button", { name: "Actions for admin" })
    .click();
  await page.getByRole("menuitem", { name: "Remove admin" }).click();
  await expect(page.getByText(/last active admin/)).toBeVisible();
});

test("an admin makes a team and puts people in it", async ({ page }) => {
  await api.send("POST", "/api/v1/users", { username: "tom-team", password: "team-password-1" });
  await openAs(page, "/projects");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Teams" }).click();
  await page.getByRole("button", { name: "New team" }).click();
  const dialog = page.getByRole("dialog", { name: "New team" });
  await dialog.getByLabel("Name").fill("dbas");
  await dialog.getByLabel("Description").fill("The database administrators");
  await dialog.getByRole("button", { name: "Create team" }).click();
  const teams = page.getByRole("table", { name: "Teams" });
  await expect(teams).toContainText("dbas");

  await teams.getByRole("button", { name: "Members of dbas" }).click();
  const members = page.getByRole("dialog", { name: "Members of “dbas”" });
  await members.getByRole("textbox", { name: "User" }).fill("tom");
  await page.getByRole("option", { name: "tom-team" }).click();
  await members.getByRole("button", { name: "Add to team" }).click();
  await expect(members.getByRole("table", { name: "Team members" })).toContainText("tom-team");
  await shots(page, "admin-team-members");
  await members.getByRole("button", { name: "Remove tom-team" }).click();
  await expect(members.getByText("Nobody in this team yet.")).toBeVisible();
  await page.keyboard.press("Escape");
  await shots(page, "admin-teams");
});

test("on a phone the administration pages fit the screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openAs(page, "/admin/users");
  await expect(page.getByRole("table", { name: "Users" })).toBeVisible();
  expect(await overflowing(page)).toEqual([]);
  await page.getByRole("button", { name: "Actions for admin" }).click();
  await expect(page.getByRole("menuitem", { name: "Reset password" })).toBeInViewport();
  await page.keyboard.press("Escape");
  await shots(page, "admin-users-phone");
  await page.goto("/admin/teams");
  await expect(page.getByRole("table", { name: "Teams" })).toBeVisible();
  expect(await overflowing(page)).toEqual([]);
  await shots(page, "admin-teams-phone");
  await page.goto("/admin/storage"); // measured by the server on its SQLite file
  await expect(page.getByLabel("Database size")).toContainText("Database (SQLite)");
  await expect(page.getByRole("table", { name: "Biggest tables" })).toContainText("runs");
  expect(await overflowing(page)).toEqual([]);
  await shots(page, "admin-storage-phone");
});

test("a user who is not an admin is told so on an administration URL", async ({ page }) => {
  await api.send("POST", "/api/v1/users", { username: "nina-user", password: "nina-password-1" });
  await openAs(page, "/projects", "nina-user", "nina-password-1");
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users" }),
  ).toHaveCount(0);
  await page.goto("/admin/users");
  await expect(page.getByText("Admins only")).toBeVisible();
  await expect(page.getByRole("button", { name: "New user" })).toHaveCount(0);
});
