// Two-factor authentication (TOTP) in the console against the real server: a user turns it on
// from the account page (the QR code and the key, a code computed here from the key as an
// authenticator app would, the recovery codes shown once), signs in with the password and then
// a code, or a recovery code (each works once), and an admin resets it for someone who lost
// the phone; at desktop and at phone width. Turning it off again takes the password and a code.
import { type Locator, type Page, expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import {
  type AdminApi,
  PASSWORD,
  adminApi,
  makeUser,
  overflowing,
  shots,
  signInAs,
} from "./admin-api.ts";
import { base32Decode, freshCode, hotp, totp } from "./totp-code.ts";

let api: AdminApi;
const tag = Date.now().toString(36);
const PHONE = { width: 390, height: 844 };

// each test turns two-factor on for a user of its own: they may run on several workers at once
test.describe.configure({ mode: "parallel" });

test.beforeAll(async ({ baseURL }) => {
  api = await adminApi(baseURL);
});

test.afterAll(async () => {
  await api.context.dispose();
});

test("the spec's TOTP helper gives RFC 6238's SHA-1 codes", () => {
  // RFC 6238 appendix B: the key is the ASCII "12345678901234567890", 8 digits
  const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
  expect(base32Decode(secret).toString("ascii")).toBe("12345678901234567890");
  const vectors: [number, string][] = [
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ];
  for (const [seconds, code] of vectors) expect(totp(secret, seconds * 1000, 8)).toBe(code);
  // RFC 4226 appendix D: HOTP with 6 digits
  expect(hotp(Buffer.from("12345678901234567890"), 0)).toBe("755224");
  expect(hotp(Buffer.from("12345678901234567890"), 9)).toBe("520489");
});

/** A code the server refuses: the current one with its last digit changed. */
function wrongCode(secret: string): string {
  const code = totp(secret);
  return code.slice(0, 5) + String((Number(code[5]) + 5) % 10);
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

async function passwordStep(page: Page, username: string) {
  await page.goto("/login?next=/projects");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("form", { name: "Two-factor authentication" })).toBeVisible();
}

/** A form's refusal: a field's error message or the form's alert. */
function refusalIn(form: Locator): Locator {
  return form.locator(".mantine-InputWrapper-error, [role=alert]").first();
}

/** Nothing a phone reader must scroll sideways to (the console's pages have a main; the login
 * page is one form). */
async function expectNoSidewaysScroll(page: Page) {
  const wide = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(wide).toBeLessThanOrEqual(1);
  if (await page.locator("main").count()) expect(await overflowing(page)).toEqual([]);
}

interface Enrolled {
  secret: string;
  counter: number;
  recoveryCodes: string[];
}

/** Turn two-factor authentication on from the account page, as `username` (signed in). */
async function enroll(page: Page, shot: string): Promise<Enrolled> {
  await page.goto("/projects");
  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: "Two-factor" }).click();
  await expect(page).toHaveURL(/\/account\?tab=two-factor$/);
  await expect(
    page.getByRole("status", { name: "Two-factor authentication is off" }),
  ).toBeVisible();
  await page.getByRole("button", { name: "Enable two-factor authentication" }).click();
  const start = page.getByRole("form", { name: "Enable two-factor authentication" });
  await expect(start.getByLabel("Current password")).toBeFocused();
  await start.getByLabel("Current password").fill("not-my-password");
  await start.getByRole("button", { name: "Continue" }).click();
  // refused: the message at the password field, or above the buttons
  await expect(refusalIn(start)).toBeVisible();
  await expect(refusalIn(start)).not.toBeEmpty();
  await start.getByLabel("Current password").fill(PASSWORD);
  await start.getByRole("button", { name: "Continue" }).click();

  const confirm = page.getByRole("form", { name: "Confirm two-factor authentication" });
  const qr = confirm.getByRole("img", { name: "QR code for your authenticator app" });
  await expect(qr).toBeVisible();
  const box = await qr.boundingBox();
  expect(box?.width).toBeGreaterThanOrEqual(150);
  const secret = ((await confirm.getByLabel("Secret key").textContent()) ?? "").trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}=*$/);
  if (page.viewportSize()?.width === PHONE.width) await expectNoSidewaysScroll(page);
  await shots(page, `${shot}-scan`);

  const codeField = confirm.getByLabel(/Authentication code/);
  await codeField.fill(wrongCode(secret));
  await confirm.getByRole("button", { name: "Verify and enable" }).click();
  // the server's 422 names the code: its message shows at the field
  await expect(codeField).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Recovery codes", { exact: true })).toHaveCount(0);

  const first = await freshCode(secret, null);
  await codeField.fill(first.code);
  await confirm.getByRole("button", { name: "Verify and enable" }).click();
  const codesBlock = page.getByLabel("Recovery codes", { exact: true });
  await expect(codesBlock).toBeVisible();
  await expect(page.getByText("Store these recovery codes now")).toBeVisible();
  const recoveryCodes = ((await codesBlock.textContent()) ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  expect(recoveryCodes).toHaveLength(10);
  expect(new Set(recoveryCodes).size).toBe(10);

  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download codes" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^steward-recovery-codes-.*\.txt$/);
  const saved = readFileSync(await download.path(), "utf8");
  for (const code of recoveryCodes) expect(saved).toContain(code);
  if (page.viewportSize()?.width === PHONE.width) await expectNoSidewaysScroll(page);
  await shots(page, `${shot}-recovery-codes`);

  await page.getByRole("button", { name: "I have stored them" }).click();
  await expect(page.getByLabel("Recovery codes", { exact: true })).toHaveCount(0);
  await expect(page.getByRole("status", { name: "Two-factor authentication is on" })).toBeVisible();
  // shown once: a reload shows the state, never the codes
  await page.reload();
  await expect(page.getByRole("status", { name: "Two-factor authentication is on" })).toBeVisible();
  await expect(page.locator("body")).not.toContainText(recoveryCodes[0] ?? "-");
  await expect(page.locator("body")).not.toContainText(secret);
  const me = await page.request.get("/api/v1/auth/me");
  expect(((await me.json()) as { totp_enabled: boolean }).totp_enabled).toBe(true);
  return { secret, counter: first.counter, recoveryCodes };
}

/** Enroll, sign in with a code and with a recovery code, then an admin resets it. */
async function fullCircle(page: Page, username: string, shot: string) {
  await makeUser(api, username);
  await signInAs(page, username);
  const enrolled = await enroll(page, `${shot}-account-2fa`);
  await signOut(page);

  // the password alone is not enough now
  await passwordStep(page, username);
  const code = page.getByLabel("Authentication code");
  await expect(code).toBeFocused();
  await expect(code).toHaveAttribute("autocomplete", "one-time-code");
  await expect(code).toHaveAttribute("inputmode", "numeric");
  await expect(page).toHaveURL(/\/login/);
  if (page.viewportSize()?.width === PHONE.width) await expectNoSidewaysScroll(page);
  await shots(page, `${shot}-login-code`);
  await code.fill("12345");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(code).toHaveAttribute("aria-invalid", "true"); // five digits: not sent
  await code.fill(wrongCode(enrolled.secret));
  await page.getByRole("button", { name: "Verify" }).click();
  const refusal = page.getByRole("alert");
  await expect(refusal).toBeVisible();
  await expect(refusal).not.toBeEmpty();
  await shots(page, `${shot}-login-code-refused`);
  const next = await freshCode(enrolled.secret, enrolled.counter);
  await code.fill(next.code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  await signOut(page);

  // a recovery code in place of the app's code, once
  const [recovery] = enrolled.recoveryCodes;
  if (!recovery) throw new Error("no recovery code");
  await passwordStep(page, username);
  await page.getByRole("button", { name: "Use a recovery code" }).click();
  const recoveryField = page.getByLabel("Recovery code");
  await expect(recoveryField).toBeFocused();
  await shots(page, `${shot}-login-recovery`);
  await recoveryField.fill(recovery);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  await signOut(page);

  await passwordStep(page, username);
  await page.getByRole("button", { name: "Use a recovery code" }).click();
  await page.getByLabel("Recovery code").fill(recovery);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Projects" })).toHaveCount(0);
  // start over: back to the password, the username kept, the password not
  await page.getByRole("button", { name: "Start over" }).click();
  await expect(page.getByLabel("Username")).toHaveValue(username);
  await expect(page.getByLabel("Password")).toHaveValue("");

  // the admin resets it: the password alone signs in again
  await signInAs(page, "admin", process.env.STEWARD_E2E_PASSWORD ?? "");
  await page.goto("/admin/users");
  await page.getByLabel("Search").fill(username);
  const users = page.getByRole("table", { name: "Users" });
  const row = users.getByRole("row", { name: new RegExp(username) });
  await expect(row.getByText("2FA", { exact: true })).toBeVisible();
  await shots(page, `${shot}-admin-users-2fa`);
  await row.getByRole("button", { name: `Actions for ${username}` }).click();
  await page.getByRole("menuitem", { name: "Reset two-factor" }).click();
  const dialog = page.getByRole("dialog", { name: `Reset two-factor for “${username}”?` });
  await expect(dialog).toBeVisible();
  await shots(page, `${shot}-admin-reset-2fa`);
  await dialog.getByRole("button", { name: "Reset two-factor" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row.getByText("2FA", { exact: true })).toHaveCount(0);
  await row.getByRole("button", { name: `Actions for ${username}` }).click();
  await expect(page.getByRole("menuitem", { name: "Reset password" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Reset two-factor" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await signOut(page);

  await signInAs(page, username);
}

test("a user turns two-factor on, signs in with a code and a recovery code; an admin resets it", async ({
  page,
}) => {
  test.setTimeout(150_000); // codes are used once: the second one waits for the next 30 s step
  await fullCircle(page, `tess-${tag}`, "totp");
});

test("two-factor at phone width", async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize(PHONE);
  await fullCircle(page, `pia-${tag}`, "totp-phone");
});

test("a user turns two-factor off with the password and a code", async ({ page }) => {
  test.setTimeout(150_000);
  const username = `otto-${tag}`;
  await makeUser(api, username);
  await signInAs(page, username);
  const enrolled = await enroll(page, "totp-off");

  await page.getByRole("button", { name: "Disable two-factor authentication" }).click();
  const form = page.getByRole("form", { name: "Disable two-factor authentication" });
  await form.getByLabel("Current password").fill(PASSWORD);
  await form.getByLabel("Authentication code").fill(wrongCode(enrolled.secret));
  await form.getByRole("button", { name: "Disable" }).click();
  await expect(refusalIn(form)).toBeVisible();
  await expect(refusalIn(form)).not.toBeEmpty();
  await expect(page.getByRole("status", { name: "Two-factor authentication is on" })).toBeVisible();
  await shots(page, "totp-off-refused");

  const next = await freshCode(enrolled.secret, enrolled.counter);
  await form.getByLabel("Authentication code").fill(next.code);
  await form.getByRole("button", { name: "Disable" }).click();
  await expect(
    page.getByRole("status", { name: "Two-factor authentication is off" }),
  ).toBeVisible();
  await signOut(page);
  await signInAs(page, username); // the password alone again
});
