// LDAP login in the console against a real OpenLDAP slapd (../tests/support/slapd.py, run as a
// child that stops slapd by its PID when it ends) and a Steward server of its own configured
// with it: an admin maps a directory group to a team in the team form, a directory user signs
// in with the ordinary password form and lands in that team, marked "from directory". At
// desktop width, and the team form at phone width. Someone removed from the directory is signed
// out by the admin's directory sync.
import { expect, request, test } from "@playwright/test";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { overflowing, shots, signInAs } from "./admin-api.ts";
import { type RunningServer, artifacts, startServer } from "./server.ts";

const REPO = resolve(import.meta.dirname, "..", "..");
const PASSWORD = "lena-directory-password";
const PHONE = { width: 390, height: 844 };
const SEED = {
  people: [
    { uid: "lena", password: PASSWORD, mail: "lena@example.test", cn: "Lena Directory" },
    { uid: "mona", password: PASSWORD, mail: "mona@example.test", cn: "Mona Leaving" },
  ],
  groups: { ops: ["lena"] },
};

let directory: ChildProcess | undefined;
let steward: RunningServer | undefined;
let workdir = "";
let opsGroup = "";
let directoryUrl = "";

function firstLine(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((done, fail) => {
    let text = "";
    const timer = setTimeout(() => fail(new Error("slapd did not start in time")), timeoutMs);
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes("\n")) {
        clearTimeout(timer);
        done(text.split("\n")[0] ?? "");
      }
    });
    child.once("exit", (code) => fail(new Error(`the slapd helper exited with ${code}`)));
  });
}

test.beforeAll(async () => {
  test.setTimeout(180_000); // its own helpers and Steward server start here
  workdir = mkdtempSync(join(tmpdir(), "steward-e2e-ldap-"));
  const python = process.env.STEWARD_PYTHON ?? join(REPO, ".venv", "bin", "python");
  const log = createWriteStream(join(artifacts, "slapd.log"));
  directory = spawn(
    python,
    ["-W", "ignore", "-m", "support.slapd", workdir, JSON.stringify(SEED)],
    {
      cwd: join(REPO, "tests"),
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  directory.stderr?.pipe(log);
  // the helper imports the app and builds slapd's config first: slow on a busy machine
  const started = JSON.parse(await firstLine(directory, 90_000)) as {
    url: string;
    groups: Record<string, string>;
  };
  opsGroup = started.groups.ops ?? "";
  directoryUrl = started.url;
  steward = await startServer({
    log: "server-ldap.log",
    env: {
      STEWARD_LDAP_URL: started.url,
      STEWARD_LDAP_BIND_DN: "cn=steward,ou=services,dc=example,dc=test",
      STEWARD_LDAP_BIND_PASSWORD: "service-secret-for-tests",
      STEWARD_LDAP_USER_BASE: "ou=people,dc=example,dc=test",
      STEWARD_LDAP_GROUP_BASE: "ou=groups,dc=example,dc=test",
    },
  });
});

test.afterAll(async () => {
  await steward?.stop();
  if (directory?.pid !== undefined && directory.exitCode === null) {
    const exited = new Promise((done) => directory?.once("exit", done));
    process.kill(directory.pid, "SIGTERM"); // the helper stops slapd by its PID
    await exited;
  }
  if (workdir) rmSync(workdir, { recursive: true, force: true });
});

test("a directory group mapped to a team puts an LDAP user in it at sign-in", async ({
  browser,
}) => {
  const server = steward;
  if (!server) throw new Error("no server");
  const admin = await browser.newContext({ baseURL: server.url });
  const page = await admin.newPage();
  await signInAs(page, "admin", server.adminPassword);
  await page.goto("/admin/teams");
  await page.getByRole("button", { name: "New team" }).click();
  const dialog = page.getByRole("dialog", { name: "New team" });
  await dialog.getByLabel("Name").fill("ops");
  // the server's limit, shown on the field
  await dialog.getByLabel("Directory groups").fill(`cn=${"x".repeat(520)}`);
  await dialog.getByRole("button", { name: "Create team" }).click();
  await expect(dialog).toContainText("at most 512 characters");
  await dialog.getByLabel("Directory groups").fill(`  ${opsGroup.toUpperCase()}  \n\n`);
  await shots(page, "ldap-team-form");
  await dialog.getByRole("button", { name: "Create team" }).click();
  await expect(dialog).toBeHidden();

  // the directory user signs in with the ordinary form
  const lena = await browser.newContext({ baseURL: server.url });
  const lenaPage = await lena.newPage();
  await signInAs(lenaPage, "lena", PASSWORD);
  const session = await lenaPage.request.get("/api/v1/auth/session");
  const body = (await session.json()) as { user: { auth_source: string; email: string } };
  expect(body.user).toMatchObject({ auth_source: "ldap", email: "lena@example.test" });
  // her password is the directory's: no form to change it, two-factor is hers to turn on
  await lenaPage.getByRole("button", { name: /^Account:/ }).click();
  await expect(lenaPage.getByRole("menuitem", { name: "Two-factor" })).toBeVisible();
  await expect(lenaPage.getByRole("menuitem", { name: "Change password" })).toHaveCount(0);
  await lenaPage.keyboard.press("Escape");
  await lenaPage.goto("/account?tab=password");
  await expect(lenaPage.getByText("change it in the directory")).toBeVisible();
  await expect(lenaPage.getByLabel("Current password")).toHaveCount(0);
  await lena.close();

  const teams = page.getByRole("table", { name: "Teams" });
  await teams.getByRole("button", { name: "Members of ops" }).click();
  const members = page.getByRole("dialog", { name: "Members of “ops”" });
  const row = members.getByRole("row", { name: /lena/ });
  await expect(row).toContainText("Lena Directory");
  await expect(row).toContainText("from directory");
  await shots(page, "ldap-team-members");
  await page.keyboard.press("Escape");
  await expect(members).toBeHidden();

  // the users page tells a directory user apart and offers no password reset for her
  await page.goto("/admin/users");
  const lenaRow = page.getByRole("table", { name: "Users" }).getByRole("row", { name: /lena/ });
  await expect(lenaRow).toContainText("LDAP");
  await lenaRow.getByRole("button", { name: "Actions for lena" }).click();
  await expect(page.getByRole("menuitem", { name: "Edit name and e-mail" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Reset password" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  await page.goto("/admin/teams");

  // the saved mapping comes back in the form, trimmed
  await teams.getByRole("button", { name: "Edit ops" }).click();
  const edit = page.getByRole("dialog", { name: "Edit team “ops”" });
  await expect(edit.getByLabel("Directory groups")).toHaveValue(opsGroup.toUpperCase());
  await admin.close();
});

test("the team form with its directory groups fits a phone", async ({ browser }) => {
  const server = steward;
  if (!server) throw new Error("no server");
  const context = await browser.newContext({ baseURL: server.url, viewport: PHONE });
  const page = await context.newPage();
  await signInAs(page, "admin", server.adminPassword);
  await page.goto("/admin/teams");
  await page.getByRole("button", { name: "New team" }).click();
  await expect(page.getByLabel("Directory groups")).toBeVisible();
  expect(await overflowing(page)).toEqual([]);
  await shots(page, "ldap-team-form-phone");
  await context.close();
});

test("someone removed from the directory is signed out by the directory sync", async ({
  browser,
}) => {
  const server = steward;
  if (!server) throw new Error("no server");
  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  // lena has an account too (the sync refuses to act when it finds none of the accounts)
  const lena = await request.newContext({ baseURL: server.url });
  const lenaLogin = await lena.post("/api/v1/auth/login", {
    data: { username: "lena", password: PASSWORD },
  });
  expect(lenaLogin.status()).toBe(200);
  await lena.dispose();
  await signInAs(page, "mona", PASSWORD);
  await page.goto("/projects");
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
  // she leaves the organisation: her entry is deleted (as the directory's root, with ldapdelete)
  const deleted = spawnSync("ldapdelete", [
    "-x",
    "-H",
    directoryUrl,
    "-D",
    "cn=admin,dc=example,dc=test",
    "-w",
    "root-secret-for-tests",
    "uid=mona,ou=people,dc=example,dc=test",
  ]);
  expect(deleted.status, deleted.stderr.toString()).toBe(0);
  // the admin runs the sync now (servers also do it every STEWARD_LDAP_SYNC_MINUTES)
  const admin = await request.newContext({ baseURL: server.url });
  const login = await admin.post("/api/v1/auth/login", {
    data: { username: "admin", password: server.adminPassword },
  });
  const { csrf_token } = (await login.json()) as { csrf_token: string };
  const synced = await admin.post("/api/v1/directory/sync", {
    headers: { "X-CSRF-Token": csrf_token },
  });
  expect(synced.status(), await synced.text()).toBe(200);
  expect(((await synced.json()) as { disabled: string[] }).disabled).toEqual(["mona"]);
  await admin.dispose();
  // her open console is signed out at its next request, and she cannot sign in again
  await page.reload();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/login");
  await page.getByLabel("Username").fill("mona");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toContainText("invalid username or password");
  expect(new URL(page.url()).pathname).toBe("/login");
  await context.close();
});
