// Everyone's own account in the console: profile, password, API tokens (the secret shown once,
// last use, revoke) and browser sessions (sign another one out); toasts keep clear of the
// header's account button.
import { type Locator, type Page, expect, test } from "@playwright/test";
import { type AdminApi, adminApi, makeUser, shots, signInAs, PASSWORD } from "./admin-api.ts";

let api: AdminApi;
// a worker started again after a failure runs beforeAll again: new names then
const tag = Date.now().toString(36);
const PAULA = `paula-${tag}`;
const TINA = `tina-${tag}`;
const SID = `sid-${tag}`;

test.beforeAll(async ({ baseURL }) => {
  api = await adminApi(baseURL);
  await makeUser(api, PAULA);
  await makeUser(api, TINA);
  await makeUser(api, SID);
});

test.afterAll(async () => {
  await api.context.dispose();
});

async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) throw new Error("not laid out");
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

async function expectToastClearOfAccount(page: Page, message: string) {
  // the same message may still show from an earlier save: any of them must keep clear
  const toast = page.locator(".mantine-Notification-root", { hasText: message }).last();
  await expect(toast).toBeVisible();
  const account = page.getByRole("button", { name: /^Account: / });
  expect(await overlaps(toast, account)).toBe(false);
  await expect(account).toBeInViewport();
}

test("a user edits the profile and changes the password; toasts leave the account button clear", async ({
  page,
}) => {
  await signInAs(page, PAULA);
  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: "Profile" }).click();
  await expect(page).toHaveURL(/\/account$/);
  const profile = page.getByRole("form", { name: "Profile" });
  await profile.getByLabel("Display name").fill("Paula P.");
  await profile.getByLabel("E-mail").fill("paula@example.test");
  await profile.getByRole("button", { name: "Save profile" }).click();
  await expectToastClearOfAccount(page, "Profile saved");
  await expect(page.getByRole("button", { name: "Account: Paula P." })).toBeVisible();
  await shots(page, "account-profile");

  await page.getByRole("tab", { name: "Password" }).click();
  await expect(page).toHaveURL(/tab=password/);
  const form = page.getByRole("form", { name: "Change password" });
  await form.getByLabel("Current password").fill("not-my-password");
  await form.getByLabel(/^New password/).fill("paula-new-password");
  await form.getByLabel("Repeat the new password").fill("paula-new-password");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form).toContainText("is not your current password");
  await form.getByLabel("Current password").fill(PASSWORD);
  await form.getByRole("button", { name: "Change password" }).click();
  await expectToastClearOfAccount(page, "Password changed");
  await shots(page, "account-password");

  // on a phone too
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("tab", { name: "Profile" }).click();
  await page
    .getByRole("form", { name: "Profile" })
    .getByRole("button", { name: "Save profile" })
    .click();
  await expectToastClearOfAccount(page, "Profile saved");
  await shots(page, "account-profile-phone");

  const again = await page.request.post("/api/v1/auth/login", {
    data: { username: PAULA, password: "paula-new-password" },
  });
  expect(again.status()).toBe(200);
});

test("a user creates a token, sees its secret once and its last use, and revokes it", async ({
  page,
  playwright,
  baseURL,
}) => {
  await signInAs(page, TINA);
  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: "API tokens" }).click();
  const form = page.getByRole("form", { name: "New API token" });
  await form.getByLabel("Name").fill("backup script");
  await form.getByText("Run", { exact: true }).click();
  await expect(form.getByRole("radio", { name: "Run" })).toBeChecked();
  await form.getByRole("textbox", { name: "Expires" }).click();
  await page.getByRole("option", { name: "In 30 days" }).click();
  await form.getByRole("button", { name: "Create token" }).click();
  const secret = page.getByLabel("New token secret");
  await expect(secret).toContainText("stw_");
  const token = (await secret.textContent())?.trim() ?? "";
  await shots(page, "account-token-created");
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByLabel("New token secret")).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(token);

  const tokens = page.getByRole("table", { name: "API tokens" });
  const row = tokens.getByRole("row", { name: /backup script/ });
  await expect(row).toContainText("run");
  await expect(row).toContainText("never"); // not used yet

  const script = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${token}` },
  });
  expect((await script.get("/api/v1/auth/me")).status()).toBe(200);
  await page.reload();
  await expect(row).not.toContainText("never");
  await shots(page, "account-tokens");

  await row.getByRole("button", { name: "Revoke backup script" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
  await expect(row).toContainText("revoked");
  expect((await script.get("/api/v1/auth/me")).status()).toBe(401);
  await script.dispose();
});

test("a user sees where they are signed in and signs another browser out", async ({
  page,
  browser,
}) => {
  const laptop = await browser.newContext();
  const other = await laptop.newPage();
  await signInAs(other, SID);

  await signInAs(page, SID);
  await page.goto("/account?tab=sessions");
  const sessions = page.getByRole("table", { name: "Sessions" });
  await expect(sessions.getByRole("row")).toHaveCount(3); // a header and two sessions
  await expect(sessions).toContainText("this browser");
  await shots(page, "account-sessions");
  await sessions.getByRole("button", { name: /^Sign out session/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Sign out" }).click();
  await expect(sessions.getByRole("row")).toHaveCount(2);

  // the other browser is signed out: its next request sends it to the login page
  await other.reload();
  await expect(other).toHaveURL(/\/login/);
  await laptop.close();

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(sessions).toBeVisible();
  await shots(page, "account-sessions-phone");
});
