// Single sign-on (OpenID Connect) in the console against a real OpenID Provider (panva's
// oidc-provider, ../tests/support/oidc_provider/server.js) and a Steward server of its own
// configured with it: the login page shows the provider's button, clicking it goes through the
// provider's login form and lands back signed in, on the page asked for; at desktop and at
// phone width. Signing out goes through the provider's logout (RP-initiated) and back to the
// login page, signed out at both. The provider and the server are stopped by their PIDs afterwards.
import { type Browser, expect, test } from "@playwright/test";
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { shots } from "./admin-api.ts";
import { type RunningServer, artifacts, freePort, startServer } from "./server.ts";

const PROVIDER_DIR = resolve(import.meta.dirname, "..", "..", "tests", "support", "oidc_provider");
const CLIENT_ID = "steward-e2e";
const LABEL = "Sign in with Example SSO";
const PASSWORD = "provider-password-e2e";
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let provider: ChildProcess | undefined;
let steward: RunningServer | undefined;
let workdir = "";

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (provider?.exitCode != null) throw new Error(`the provider exited: ${provider.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((wait) => setTimeout(wait, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

test.beforeAll(async () => {
  test.setTimeout(120_000); // its own helpers and Steward server start here
  workdir = mkdtempSync(join(tmpdir(), "steward-e2e-oidc-"));
  const state = join(workdir, "state.json");
  const person = { password: PASSWORD, email: "dana@example.com", name: "Dana SSO" };
  const users = { dana: { ...person, groups: ["ops"] }, erin: { ...person, groups: [] } };
  writeFileSync(state, JSON.stringify({ users, tamper: null }));
  const secret = `e2e-oidc-secret-${Date.now()}`;
  writeFileSync(join(workdir, "secret"), secret, { mode: 0o600 });
  const [providerPort, stewardPort] = [await freePort(), await freePort()];
  const issuer = `http://127.0.0.1:${providerPort}`;
  const callback = `http://127.0.0.1:${stewardPort}/api/v1/auth/oidc/callback`;
  const log = createWriteStream(join(artifacts, "oidc-provider.log"));
  provider = spawn("node", [join(PROVIDER_DIR, "server.js")], {
    cwd: PROVIDER_DIR,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      OIDC_TEST_PORT: String(providerPort),
      OIDC_TEST_STATE: state,
      OIDC_TEST_CLIENT_ID: CLIENT_ID,
      OIDC_TEST_CLIENT_SECRET: secret,
      OIDC_TEST_REDIRECT_URIS: JSON.stringify([callback]),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  provider.stdout?.pipe(log);
  provider.stderr?.pipe(log);
  // the provider and Steward start side by side: Steward asks the provider only at a sign-in
  // (its discovery is fetched then, and a failed fetch is not kept)
  const [providerUp, started] = await Promise.allSettled([
    waitFor(`${issuer}/.well-known/openid-configuration`, 60_000),
    startServer({
      port: stewardPort,
      log: "server-oidc.log",
      env: {
        STEWARD_OIDC_ISSUER: issuer,
        STEWARD_OIDC_CLIENT_ID: CLIENT_ID,
        STEWARD_OIDC_CLIENT_SECRET_FILE: join(workdir, "secret"),
        STEWARD_OIDC_SCOPES: "openid profile email groups",
        STEWARD_OIDC_BUTTON_LABEL: LABEL,
      },
    }),
  ]);
  if (started.status === "fulfilled") steward = started.value;
  if (providerUp.status === "rejected") throw providerUp.reason;
  if (started.status === "rejected") throw started.reason;
});

test.afterAll(async () => {
  await steward?.stop();
  if (provider?.pid !== undefined && provider.exitCode === null) {
    const exited = new Promise((done) => provider?.once("exit", done));
    process.kill(provider.pid, "SIGTERM");
    await exited;
  }
  if (workdir) rmSync(workdir, { recursive: true, force: true });
});

async function signInThroughProvider(browser: Browser, viewport: typeof DESKTOP, who: string) {
  const server = steward;
  if (!server) throw new Error("no server");
  const context = await browser.newContext({ viewport, baseURL: server.url });
  const page = await context.newPage();
  await page.goto("/login?next=/projects");
  const sso = page.getByRole("link", { name: LABEL });
  await expect(sso).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible(); // the password form stays
  await shots(page, `oidc-login-${viewport.width}`);
  await sso.click();
  // the provider's own page, on its own origin
  await expect(page.getByRole("heading", { name: "Test OpenID Provider" })).toBeVisible();
  expect(new URL(page.url()).origin).not.toBe(server.url);
  await page.getByLabel("Username").fill(who);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  // back in Steward, signed in, on the page asked for
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/projects");
  await expect(page.getByRole("button", { name: /^Account: / })).toBeVisible();
  const session = await page.request.get("/api/v1/auth/session");
  expect(session.status()).toBe(200);
  const body = (await session.json()) as { user: { username: string; email: string } };
  expect(body.user.username).toBe(who);
  expect(body.user.email).toBe("dana@example.com");
  await shots(page, `oidc-signed-in-${viewport.width}`);
  // no Steward password and no Steward second factor: both are the provider's
  await page.goto("/account?tab=two-factor");
  await expect(page.getByText("its multi-factor settings apply")).toBeVisible();
  await page.goto("/account?tab=password");
  await expect(page.getByText("change your password there")).toBeVisible();
  await context.close();
}

test("the SSO button signs in through the provider (desktop)", async ({ browser }) => {
  await signInThroughProvider(browser, DESKTOP, "dana");
});

test("the SSO button signs in through the provider (phone)", async ({ browser }) => {
  await signInThroughProvider(browser, PHONE, "erin");
});

test("signing out ends the sign-in at the provider too, back on the login page", async ({
  browser,
}) => {
  const server = steward;
  if (!server) throw new Error("no server");
  const context = await browser.newContext({ viewport: DESKTOP, baseURL: server.url });
  const page = await context.newPage();
  await page.goto("/login?next=/projects");
  await page.getByRole("link", { name: LABEL }).click();
  await page.getByLabel("Username").fill("dana");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  // the ID token for the provider's logout is kept where scripts cannot read it
  expect(await page.evaluate(() => document.cookie)).not.toContain("steward_oidc_logout");
  expect(await page.evaluate(() => JSON.stringify(window.localStorage))).not.toMatch(/eyJ/);

  await page.getByRole("button", { name: /^Account: / }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  // the provider's own logout page, on its origin
  await expect(
    page.getByRole("heading", { name: /Sign out of the Test OpenID Provider/ }),
  ).toBeVisible();
  expect(new URL(page.url()).origin).not.toBe(server.url);
  await shots(page, "oidc-logout-at-provider");
  await page.getByRole("button", { name: "Yes, sign me out" }).click();
  // back on Steward's login page, signed out here
  await expect(page.getByRole("link", { name: LABEL })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(server.url);
  expect(new URL(page.url()).pathname).toBe("/login");
  expect((await page.request.get("/api/v1/auth/session")).status()).toBe(401);
  // and signed out there: the SSO button asks for the password again
  await page.getByRole("link", { name: LABEL }).click();
  await expect(page.getByRole("heading", { name: "Test OpenID Provider" })).toBeVisible();
  await expect(page.getByLabel("Password")).toBeVisible();
  await context.close();
});

test("the server of the other tests shows no SSO button (not configured)", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("link", { name: /SSO/ })).toHaveCount(0);
});
