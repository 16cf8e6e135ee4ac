// The home dashboard against the real server: real runs (one template failing, one run held
// running, one queued behind it by the project's limit), the counts on the page are the API's,
// the queued run says why it waits, a user holding a single grant sees only that template's
// runs; at desktop and phone width, light and dark.
import { expect as baseExpect, type Page, request, test } from "@playwright/test";
import { type AdminApi, adminApi, makeUser, PASSWORD, shots, openAs } from "./admin-api.ts";
import { Workbench } from "./run-workbench.ts";

const expect = baseExpect.configure({ timeout: 20_000 });

const PLAY = (task: string) => `- hosts: all\n  gather_facts: false\n  tasks:\n    - ${task}\n`;
const PLAYBOOKS = {
  "nightly-ok.yml": PLAY("ansible.builtin.debug: {msg: fine}"),
  "nightly-broken.yml": PLAY("ansible.builtin.fail: {msg: the disk is full}"),
  "long-pause.yml": PLAY("ansible.builtin.pause: {seconds: 120}"),
};
const GRANTEE = `dana-${Date.now()}`; // a retried beforeAll makes another
const WAITING = "project limit reached (1 of 1 runs running)";

interface Dashboard {
  per_day: { day: string; total: number; counts: Record<string, number> }[];
  totals: { runs: number; running: number; queued: number; failing_templates: number };
}

let api: AdminApi;
let bench: Workbench;
let project = "";
let slowRun = 0;
let queuedRun = 0;
let failedRun = 0;

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(180_000);
  api = await adminApi(baseURL);
  project = `dashboard-${Date.now()}`;
  bench = await Workbench.create(await request.newContext({ baseURL }), project, PLAYBOOKS);
  // both at once (the project's limit is 4 until below)
  const okRun = (await bench.launch("nightly-ok")).id;
  failedRun = (await bench.launch("nightly-broken")).id;
  const [, failed] = await Promise.all([bench.waitFinished(okRun), bench.waitFinished(failedRun)]);
  expect(failed.status).toBe("failed");
  // one run at a time in this project: the next one waits behind the long pause
  await api.send("PATCH", `/api/v1/projects/${bench.projectId}`, { max_parallel_runs: 1 });
  slowRun = (await bench.launch("long-pause")).id;
  for (let tries = 0; (await bench.run(slowRun)).status !== "running"; tries++) {
    expect(tries, "the long run never started").toBeLessThan(240);
    await new Promise((wait) => setTimeout(wait, 250));
  }
  queuedRun = (await bench.launch("nightly-ok")).id;

  const grantee = await makeUser(api, GRANTEE);
  const templates = await api.send<{ items: { id: number; name: string }[] }>(
    "GET",
    `/api/v1/projects/${bench.projectId}/templates`,
  );
  const ok = templates.items.find((t) => t.name === "nightly-ok");
  await api.send("POST", `/api/v1/projects/${bench.projectId}/templates/${ok?.id}/grants`, {
    user_id: grantee,
    permission: "run",
  });
});

test.afterAll(async () => {
  await api.send("POST", `/api/v1/projects/${bench.projectId}/runs/${slowRun}/cancel`);
  await api.context.dispose();
});

/** What the API answers the page's user, in the page's zone (the page asks the same). */
async function served(page: Page, days = 14): Promise<Dashboard> {
  const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const response = await page.request.get(`/api/v1/dashboard?days=${days}&tz=${tz}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as Dashboard;
}

const today = (page: Page) =>
  page.getByRole("group", { name: "Runs per day" }).getByRole("img").last();

test("the dashboard shows the runs of the days, failing templates and why a run waits", async ({
  page,
}) => {
  await openAs(page, "/");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Dashboard", exact: true })).toHaveAttribute(
    "data-active",
    "true",
  );

  const failing = page.getByRole("table", { name: "Failing templates" });
  const broken = failing.getByRole("row").filter({ hasText: "nightly-broken" });
  await expect(broken).toContainText(project);
  await expect(broken).toContainText("1 of 1 (100%)");
  await expect(broken.getByRole("link", { name: `Run #${failedRun}, failed` })).toBeVisible();
  await expect(failing).not.toContainText("nightly-ok");

  const active = page.getByRole("table", { name: "Running and queued runs" });
  await expect(active.getByRole("row").filter({ hasText: `#${slowRun}` })).toContainText(
    /long-pause.*running.*running for \d+/,
  );
  await expect(active.getByRole("row").filter({ hasText: `#${queuedRun}` })).toContainText(
    `queued${WAITING}`,
  );

  // the figures are the API's for this user and zone
  const answer = await served(page);
  const day = answer.per_day[answer.per_day.length - 1];
  expect(day?.counts.failed).toBeGreaterThanOrEqual(1);
  expect(day?.counts.running).toBeGreaterThanOrEqual(1);
  await expect(today(page)).toHaveAttribute(
    "aria-label",
    new RegExp(
      `: ${day?.total} runs — .*${day?.counts.successful} successful, ${day?.counts.failed} failed`,
    ),
  );
  await expect(page.getByRole("group", { name: "Runs, 14 days" })).toContainText(
    String(answer.totals.runs),
  );
  await expect(page.getByRole("group", { name: "Running now" })).toContainText(
    String(answer.totals.running),
  );
  await expect(page.getByRole("group", { name: "Queued now" })).toContainText(
    String(answer.totals.queued),
  );
  await shots(page, "dashboard");

  // 7 days: the same today, one bar per day
  await page.getByText("7 d").click();
  await expect(page).toHaveURL(/\?days=7$/);
  await expect(page.getByRole("group", { name: "Runs per day" }).getByRole("img")).toHaveCount(7);

  // a failing template leads to its page
  await broken.getByRole("link", { name: "nightly-broken" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${bench.projectId}/templates/\\d+$`));
  // the projects list moved to /projects, its nav link still leads there
  await page.getByRole("link", { name: "Projects", exact: true }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByRole("table", { name: "Projects" })).toContainText(project);
});

test("a user with one grant sees only that template's runs, on a phone too", async ({ page }) => {
  await openAs(page, "/", GRANTEE, PASSWORD);
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(today(page)).toHaveAttribute("aria-label", /: 2 runs — 1 successful, 1 queued$/);
  await expect(page.getByRole("group", { name: "Runs, 14 days" })).toContainText("2");
  await expect(page.getByText("No failing templates")).toBeVisible();
  const active = page.getByRole("table", { name: "Running and queued runs" });
  await expect(active.getByRole("row")).toHaveCount(2); // the header, the queued run
  await expect(active).toContainText(`#${queuedRun}`);
  await expect(active).toContainText(WAITING);
  await expect(page.locator("main")).not.toContainText("long-pause");
  await expect(page.locator("main")).not.toContainText("nightly-broken");
  const answer = await served(page);
  expect(answer.totals).toMatchObject({ runs: 2, running: 0, queued: 1, failing_templates: 0 });
  await shots(page, "dashboard-grantee");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(today(page)).toBeVisible();
  // the chart follows the new width once its resize observer has fired: wait for the layout
  await expect
    .poll(() =>
      page.evaluate(() =>
        Math.max(
          document.documentElement.scrollWidth,
          document.querySelector("[aria-label='Runs per day']")?.getBoundingClientRect().right ??
            Infinity,
        ),
      ),
    )
    .toBeLessThanOrEqual(390);
  // why the run waits stays on screen: the table wraps rather than scrolls
  await expect
    .poll(async () => {
      const reason = await active.getByText(WAITING).boundingBox();
      return (reason?.x ?? 0) + (reason?.width ?? Infinity);
    })
    .toBeLessThanOrEqual(390);
  await shots(page, "dashboard-phone");
});
