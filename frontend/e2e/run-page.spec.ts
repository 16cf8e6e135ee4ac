// The run page answers at a glance: the newest line in view while following (desktop and
// phone), a clock that keeps counting through a quiet task, a host's lines with their task
// headers, the recap and the first failure a click away, parameters by name; and the runs list
// and the audit trail say who, how and from where.
import { type Page, expect as baseExpect, request, test } from "@playwright/test";
import { join, resolve } from "node:path";
import { shots, openAs, screenshot } from "./admin-api.ts";
import { Workbench } from "./run-workbench.ts";
import { artifacts } from "./server.ts";

const expect = baseExpect.configure({ timeout: 15_000 });
const python =
  process.env.STEWARD_PYTHON ?? join(resolve(import.meta.dirname, "..", ".."), ".venv/bin/python");

const TICKS = `- hosts: all
  gather_facts: false
  tasks:
    - name: tick
      ansible.builtin.debug: {msg: "tick {{ item }}"}
      loop: "{{ range(1, 300) | list }}"
      loop_control: {pause: 1}
`;
const QUIET = `- hosts: all
  gather_facts: false
  tasks:
    - name: quiet
      ansible.builtin.pause: {seconds: 60}
`;
const TWO_HOSTS = `- hosts: all
  gather_facts: false
  tasks:
    - name: say hello
      ansible.builtin.debug: {msg: "marker-{{ inventory_hostname }}"}
    - name: break alpha
      ansible.builtin.fail: {msg: "alpha is broken"}
      when: inventory_hostname == "alpha"
`;

let bench: Workbench;
let twoHostsTemplate = 0;

// each test launches runs of its own in the project: they may run on several workers at once (each
// worker builds the project on its server)
test.describe.configure({ mode: "parallel" });

test.beforeAll(async ({ baseURL }) => {
  const context = await request.newContext({ baseURL });
  // a retried worker builds its own: project names are unique
  bench = await Workbench.create(context, `run-page-${Date.now()}`, {
    "ticks.yml": TICKS,
    "quiet.yml": QUIET,
    "two-hosts.yml": TWO_HOSTS,
  });
  const inventory = await bench.post(bench.url("inventories"), {
    name: "two-hosts",
    kind: "static",
    format: "ini",
    content: ["alpha", "beta"]
      .map((host) => `${host} ansible_connection=local ansible_python_interpreter=${python}`)
      .join("\n"),
  });
  const templates = await context.get(bench.url("templates"));
  const twoHosts = ((await templates.json()) as { items: { id: number; name: string }[] }).items
    .filter((t) => t.name === "two-hosts")
    .map((t) => t.id)[0];
  await context.fetch(bench.url(`templates/${twoHosts}`), {
    method: "PATCH",
    data: { inventory_id: inventory.id },
    headers: { "X-CSRF-Token": await csrfOf(context) },
  });
  twoHostsTemplate = twoHosts ?? 0;
});

async function csrfOf(context: import("@playwright/test").APIRequestContext) {
  const session = await context.get("/api/v1/auth/session");
  return ((await session.json()) as { csrf_token: string }).csrf_token;
}

/** Where the log's last rendered row is, against the window, and the run's line count. */
async function newestLine(page: Page) {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll("[aria-label='Run output'] [data-line]")];
    const last = rows.at(-1);
    const box = last?.getBoundingClientRect();
    const count = /([\d,.]+) lines?/.exec(document.body.innerText)?.[1] ?? "0";
    return {
      line: Number(last?.getAttribute("data-line") ?? -1),
      count: Number(count.replace(/[^\d]/g, "")),
      bottom: box?.bottom ?? Infinity,
      windowHeight: window.innerHeight,
      scrolled: window.scrollY,
    };
  });
}

async function expectNewestLineInView(page: Page) {
  await expect(async () => {
    const seen = await newestLine(page);
    expect(seen.scrolled).toBe(0);
    expect(seen.line).toBeGreaterThanOrEqual(seen.count - 1);
    expect(seen.bottom).toBeLessThanOrEqual(seen.windowHeight);
  }).toPass({ timeout: 15_000 });
}

test("following, the newest line shows without scrolling the page, on a desktop and a phone", async ({
  page,
}) => {
  const run = await bench.launch("ticks");
  await page.setViewportSize({ width: 1280, height: 720 });
  await openAs(page, `/projects/${bench.projectId}/runs/${run.id}`);
  const log = page.getByRole("region", { name: "Run output" });
  await expect(log).toContainText("tick 3", { timeout: 30_000 });
  await expect(page.getByRole("switch", { name: "Follow output" })).toBeChecked();
  await expectNewestLineInView(page);
  // three more ticks after the newest shown now (an early one may have left the rendered rows)
  const shown = [...((await log.textContent()) ?? "").matchAll(/"tick (\d+)"/g)];
  const newest = Number(shown.at(-1)?.[1] ?? 3);
  await expect(log).toContainText(`"tick ${newest + 3}"`, { timeout: 15_000 });
  await expectNewestLineInView(page);
  await screenshot(page, { path: join(artifacts, "run-page-follow-desktop.png") });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(log).toContainText("tick", { timeout: 15_000 });
  await expect(page.getByRole("switch", { name: "Follow output" })).toBeChecked();
  await expectNewestLineInView(page);
  await screenshot(page, { path: join(artifacts, "run-page-follow-phone.png") });
  await bench.post(bench.url(`runs/${run.id}/cancel`), {});
});

/** The seconds "Running for" shows. */
async function runningFor(page: Page): Promise<number> {
  const text = await page
    .locator("div")
    .filter({ hasText: /^Running for \d/ })
    .last()
    .textContent();
  const match = /([\d.]+) s$/.exec(text ?? "") ?? /(\d+) min (\d+) s$/.exec(text ?? "");
  if (!match) throw new Error(`no duration in ${text}`);
  return match.length === 3 ? Number(match[1]) * 60 + Number(match[2]) : Number(match[1]);
}

test("'running for' keeps counting through a quiet task", async ({ page }) => {
  const run = await bench.launch("quiet");
  await openAs(page, `/projects/${bench.projectId}/runs/${run.id}`);
  await expect(page.getByRole("region", { name: "Run output" })).toContainText("TASK [quiet]", {
    timeout: 30_000,
  });
  const before = await runningFor(page);
  const since = Date.now();
  // nothing is printed while the pause lasts: the clock moves on by itself (it froze before)...
  await expect.poll(() => runningFor(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(before + 2);
  const after = await runningFor(page);
  // ...at the pace of the wall clock, not faster (each value is rounded to the second)
  expect(after - before).toBeLessThanOrEqual((Date.now() - since) / 1000 + 1.5);
  await bench.post(bench.url(`runs/${run.id}/cancel`), {});
});

test("a host's lines keep their task headers; the recap and first failure are a click away", async ({
  page,
}) => {
  const launched = await bench.post(bench.url("runs"), { template_id: twoHostsTemplate });
  const run = await bench.waitFinished(launched.id as number);
  expect(run.status).toBe("failed");
  await openAs(page, `/projects/${bench.projectId}/runs/${run.id}`);

  // the recap above the tabs names the failed host
  const recap = page.getByRole("group", { name: "Recap" });
  await expect(recap).toContainText("2 hosts");
  await expect(recap).toContainText("1 failed");
  await recap.getByRole("button", { name: "Jump to first failure" }).click();
  const highlighted = page.locator("[data-highlight]");
  await expect(highlighted).toContainText("alpha is broken");
  await expect(highlighted).toBeInViewport();
  await shots(page, "run-page-first-failure");

  // one match: said in the singular
  await page.getByRole("textbox", { name: "Search output" }).fill("marker-alpha");
  await expect(page.getByText("1 matching line;")).toBeVisible();

  // a host's lines: with the TASK headers they belong to, and none of the other host's
  await page.getByRole("textbox", { name: "Search output" }).fill("");
  await recap.getByRole("button", { name: "alpha" }).click();
  const matches = page.getByRole("region", { name: "Matching lines" });
  await expect(matches).toContainText("TASK [say hello]");
  await expect(matches).toContainText("TASK [break alpha]");
  await expect(matches).toContainText("ok: [alpha]");
  await expect(matches).not.toContainText("[beta]");
  await shots(page, "run-page-host-filter");

  // parameters by name, not by id
  await page.getByRole("tab", { name: "Parameters" }).click();
  const parameters = page.getByRole("table", { name: "Run parameters" });
  await expect(parameters.getByRole("row", { name: /Inventory/ })).toContainText("two-hosts");
  await expect(parameters.getByRole("row", { name: /Repository/ })).toContainText("playbooks");
  await shots(page, "run-page-parameters");
});

test("the runs list and the audit trail say who, how, when and from where", async ({ page }) => {
  const run = await bench.launch("quiet");
  await bench.post(bench.url(`runs/${run.id}/cancel`), {});
  await openAs(page, `/projects/${bench.projectId}/runs`);
  const table = page.getByRole("table", { name: "Runs" });
  for (const header of ["Duration", "Launched by", "How", "From"]) {
    await expect(table.getByRole("columnheader", { name: header })).toBeVisible();
  }
  const row = table.getByRole("row", { name: new RegExp(`#${run.id}\\b`) });
  await expect(row).toContainText("admin");
  await expect(row).toContainText("api");
  await expect(row).toContainText("127.0.0.1");
  await shots(page, "runs-list-columns");

  await page.goto(`/projects/${bench.projectId}/audit`);
  await expect(page.getByLabel("Since (date and time)")).toBeVisible();
  await expect(page.getByLabel("From", { exact: true })).toHaveCount(0);
  const audit = page.getByRole("table", { name: "Audit trail" });
  const launch = audit.getByRole("row", { name: /run:launch/ }).first();
  await expect(launch).toContainText("admin");
  await expect(launch).toContainText("127.0.0.1");
  await shots(page, "audit-rows");
  await launch.getByRole("link", { name: /^run / }).click();
  await expect(page).toHaveURL(/\/runs\/\d+$/);
});
