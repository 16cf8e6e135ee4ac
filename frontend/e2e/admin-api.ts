// The API as the e2e admin, from its own request context (its cookie is not the page's): to
// make users, projects and runs a test then looks at through the console.
import { type APIRequestContext, type Page, expect, request } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { artifacts, repositoryDir } from "./server.ts";

export const PASSWORD = "console-e2e-password";

export interface AdminApi {
  send: <T = Record<string, unknown>>(method: string, url: string, data?: unknown) => Promise<T>;
  context: APIRequestContext;
}

export async function adminApi(baseURL: string | undefined): Promise<AdminApi> {
  const context = await request.newContext({ baseURL });
  const login = await context.post("/api/v1/auth/login", {
    data: { username: "admin", password: process.env.STEWARD_E2E_PASSWORD ?? "" },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const { csrf_token } = (await login.json()) as { csrf_token: string };
  const send = async <T>(method: string, url: string, data?: unknown): Promise<T> => {
    const response = await context.fetch(url, {
      method,
      data,
      headers: { "X-CSRF-Token": csrf_token },
    });
    expect(response.ok(), `${method} ${url}: ${await response.text()}`).toBe(true);
    return (response.status() === 204 ? {} : await response.json()) as T;
  };
  return { send, context };
}

export interface PlaybookProject {
  projectId: number;
  repositoryId: number;
  inventoryId: number;
}

/** A project made by the admin with a local repository holding `playbooks` (file → text) and a
 * localhost inventory using Steward's Python. */
export async function playbookProject(
  api: AdminApi,
  name: string,
  playbooks: Record<string, string>,
): Promise<PlaybookProject> {
  const dir = repositoryDir(`${name}-`);
  for (const [file, text] of Object.entries(playbooks)) writeFileSync(join(dir, file), text);
  const projectId = (await api.send<{ id: number }>("POST", "/api/v1/projects", { name })).id;
  const url = (path: string) => `/api/v1/projects/${projectId}/${path}`;
  await assignLocalRoot(api, projectId, dir);
  const repository = await api.send<{ id: number }>("POST", url("repositories"), {
    name: "playbooks",
    kind: "local",
    url: dir,
  });
  const python =
    process.env.STEWARD_PYTHON ?? join(import.meta.dirname, "..", "..", ".venv", "bin", "python");
  const inventory = await api.send<{ id: number }>("POST", url("inventories"), {
    name: "local",
    kind: "static",
    format: "ini",
    content: `localhost ansible_connection=local ansible_python_interpreter=${python}\n`,
  });
  return { projectId, repositoryId: repository.id, inventoryId: inventory.id };
}

/** The admin assigns `dir` (inside the server's local repository roots) to the project as its
 * local directory: only there may its local repositories be. */
export async function assignLocalRoot(api: AdminApi, projectId: number, dir: string) {
  await api.send("PUT", `/api/v1/projects/${projectId}/local-roots`, { local_roots: [dir] });
}

/** A user made by the admin (password PASSWORD); returns its id. */
export async function makeUser(api: AdminApi, username: string, extra: object = {}) {
  const user = await api.send<{ id: number }>("POST", "/api/v1/users", {
    username,
    password: PASSWORD,
    ...extra,
  });
  return user.id;
}

export async function signInAs(page: Page, username: string, password = PASSWORD) {
  await page.goto("/login?next=/projects"); // the first screen is the dashboard
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
}

/** The page signed in as `username` without the sign-in form (the specs of the form itself,
 * console, account, totp, ldap and oidc, still go through it): the session cookie lands in the
 * page's browser context through `page.request`, then the page opens `path`. One page load
 * instead of three (login page, first screen, `path`). */
export async function openAs(
  page: Page,
  path: string,
  username = "admin",
  password = process.env.STEWARD_E2E_PASSWORD ?? "",
) {
  await signInThroughApi(page, username, password);
  await page.goto(path);
  await expect(page).not.toHaveURL(/\/login/);
}

/** `username`'s session cookie in the page's browser context (see openAs), the page left where
 * it is: for a test whose next step opens a page itself. */
export async function signInThroughApi(
  page: Page,
  username = "admin",
  password = process.env.STEWARD_E2E_PASSWORD ?? "",
) {
  const login = await page.request.post("/api/v1/auth/login", { data: { username, password } });
  expect(login.ok(), await login.text()).toBe(true);
}

/** On a phone the navigation slides away: true once it has (a screenshot waits for it). */
export async function navigationGone(page: Page) {
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect
    .poll(async () => {
      const box = await nav.boundingBox();
      return box ? box.x + box.width : 0;
    })
    .toBeLessThanOrEqual(0);
}

/** Screenshots are for people reading test-artifacts/ (how a page looks, light and dark): they
 * assert nothing, and some 250 of them took about a third of the suite's time, so they are taken
 * only when asked for: STEWARD_E2E_SHOTS=1 npx playwright test. (A failing test's screenshot and
 * trace are kept either way: playwright.config.ts.)
 *
 * One small set is ALWAYS taken, so that every CI run's artifacts show them: issue 24's new
 * pages (run progress live, the failure summary, the approvals inbox, the admin's audit page,
 * guided setup's empty state and create in place, the project tabs' More menu, the compare
 * overlay), each at 1280 and 390 px, light scheme, the window only (not the full page): see
 * pageShot, the only way to take one. */
export const SHOTS = process.env.STEWARD_E2E_SHOTS === "1";

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** The window's screenshot of the page as it is now, ALWAYS taken (see SHOTS): at each width of
 * `widths` (the page resized, back to its size after; on a phone once the navigation has slid
 * away), in the light scheme, into test-artifacts/pages/<name>-<width>.png. A width equal to the
 * page's own is taken as it is: an open menu stays open. */
export async function pageShot(page: Page, name: string, widths: readonly number[] = [1280, 390]) {
  const before = page.viewportSize() ?? DESKTOP;
  const scheme = await page.evaluate(() =>
    document.documentElement.getAttribute("data-mantine-color-scheme"),
  );
  const setScheme = (value: string | null) =>
    page.evaluate((s) => {
      if (s) document.documentElement.setAttribute("data-mantine-color-scheme", s);
    }, value);
  if (scheme !== "light") await setScheme("light");
  for (const width of widths) {
    if (width !== page.viewportSize()?.width) {
      await page.setViewportSize(width === PHONE.width ? PHONE : { ...DESKTOP, width });
    }
    if (width < 768) await navigationGone(page);
    await page.screenshot({ path: join(artifacts, "pages", `${name}-${width}.png`) });
  }
  if (before.width !== page.viewportSize()?.width) await page.setViewportSize(before);
  if (scheme !== "light") await setScheme(scheme);
}

/** page.screenshot, taken only with STEWARD_E2E_SHOTS=1 (see SHOTS). */
export async function screenshot(page: Page, options: Parameters<Page["screenshot"]>[0]) {
  if (SHOTS) await page.screenshot(options);
}

/** A full-page screenshot in the e2e artifacts, in the light and the dark scheme (only with
 * STEWARD_E2E_SHOTS=1, see SHOTS). */
export async function shots(page: Page, name: string) {
  if (!SHOTS) return;
  for (const scheme of ["light", "dark"] as const) {
    await page.evaluate(
      (s) => document.documentElement.setAttribute("data-mantine-color-scheme", s),
      scheme,
    );
    await page.screenshot({ path: join(artifacts, `${name}-${scheme}.png`), fullPage: true });
  }
  await page.evaluate(() =>
    document.documentElement.setAttribute("data-mantine-color-scheme", "light"),
  );
}

/** The parts of the page wider than the window (what a phone reader must scroll sideways). */
export async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const main = document.querySelector("main");
    if (!main) return ["no main element"];
    // the section tabs scroll sideways on purpose
    return [...main.querySelectorAll("button:not([role=tab]), a")]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && (box.right > width + 1 || box.left < -1);
      })
      .map((element) => element.getAttribute("aria-label") ?? element.textContent ?? "");
  });
}
