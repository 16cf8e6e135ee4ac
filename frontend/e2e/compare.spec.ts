// Comparing runs and a template's page, against the real server and real runs: a template is
// run four times with a variable that makes one "step" task sleep 3 s longer in the second run;
// picked in the runs list, three runs compare side by side (the slower step first among the
// regressions, the differing variable highlighted, timelines and metrics on one axis); more
// than four or fewer than two picked runs are refused, runs of two templates are flagged; the
// template page charts its last runs' durations and slowest tasks. Metrics are overlaid (one
// chart per metric, a line per run); a run labelled in the compare view ("TDE on") is named so
// in the charts' legend and the runs list, which filters by a launch value. Desktop, phone, dark.
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect as baseExpect, test } from "@playwright/test";
import {
  type AdminApi,
  PASSWORD,
  adminApi,
  assignLocalRoot,
  makeUser,
  overflowing,
  openAs,
  pageShot,
  screenshot,
} from "./admin-api.ts";
import { FINISHED } from "./run-workbench.ts";
import { artifacts, repositoryDir } from "./server.ts";

const expect = baseExpect.configure({ timeout: 20_000 });
const python =
  process.env.STEWARD_PYTHON ?? join(resolve(import.meta.dirname, "..", ".."), ".venv/bin/python");

const PERF = `- hosts: all
  gather_facts: false
  tasks:
    - name: warm up
      ansible.builtin.debug: {msg: "warming up"}
    - name: step
      ansible.builtin.command: "sleep {{ nap | default(0) }}"
      changed_when: false
    - name: step
      ansible.builtin.command: "sleep 1"
      changed_when: false
    - name: report
      ansible.builtin.debug: {msg: "done"}
`;
const OTHER = `- hosts: all
  gather_facts: false
  tasks:
    - name: warm up
      ansible.builtin.debug: {msg: "another playbook"}
`;

let api: AdminApi;
let projectId = 0;
let perfId = 0;
const runs: number[] = []; // perf: nap 0, 3, 0, 0
let otherRun = 0;
let viewerName = "";

async function finished(runId: number) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const run = await api.send<{ status: string }>(
      "GET",
      `/api/v1/projects/${projectId}/runs/${runId}`,
    );
    if (FINISHED.includes(run.status)) return run.status;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.status}`);
    await new Promise((wait) => setTimeout(wait, 300));
  }
}

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(240_000);
  api = await adminApi(baseURL);
  const dir = repositoryDir("compare-");
  writeFileSync(join(dir, "perf.yml"), PERF);
  writeFileSync(join(dir, "other.yml"), OTHER);
  projectId = (
    await api.send<{ id: number }>("POST", "/api/v1/projects", {
      name: `compare-${Date.now()}`,
    })
  ).id;
  const url = (path: string) => `/api/v1/projects/${projectId}/${path}`;
  await assignLocalRoot(api, projectId, dir);
  const repository = await api.send<{ id: number }>("POST", url("repositories"), {
    name: "playbooks",
    kind: "local",
    url: dir,
  });
  const inventory = await api.send<{ id: number }>("POST", url("inventories"), {
    name: "localhost",
    kind: "static",
    format: "ini",
    content: `localhost ansible_connection=local ansible_python_interpreter=${python}\n`,
  });
  const template = (name: string, playbook: string) =>
    api.send<{ id: number }>("POST", url("templates"), {
      name,
      playbook,
      repository_id: repository.id,
      inventory_id: inventory.id,
      overridable: ["extra_vars"],
    });
  perfId = (await template("encrypt-perf", "perf.yml")).id;
  const otherId = (await template("other-perf", "other.yml")).id;
  // the other template's run (one debug task, its times compared with nothing) beside the first
  // perf run, whose times it could only lengthen: the baseline; the perf runs one after another
  otherRun = (await api.send<{ id: number }>("POST", url("runs"), { template_id: otherId })).id;
  for (const nap of [0, 3, 0, 0]) {
    const run = await api.send<{ id: number }>("POST", url("runs"), {
      template_id: perfId,
      extra_vars: { nap, cipher: nap ? "aes256" : "none" },
    });
    expect(await finished(run.id)).toBe("successful");
    runs.push(run.id);
  }
  expect(await finished(otherRun)).toBe("successful");
  viewerName = `compare-viewer-${Date.now()}`;
  const viewer = await makeUser(api, viewerName);
  await api.send("PUT", url("members"), { user_id: viewer, role: "viewer" });
});

test("runs picked in the list compare side by side, the regression first", async ({ page }) => {
  test.setTimeout(120_000);
  await openAs(page, `/projects/${projectId}/runs`);
  const picker = page.getByRole("region", { name: "Compare runs" });
  await expect(picker).toContainText("Tick 2 to 4 runs");
  for (const id of [...runs, otherRun]) await page.getByLabel(`Pick run ${id}`).check();
  await expect(picker).toContainText("5 runs picked · At most 4 runs can be compared: untick 1");
  await expect(picker.getByRole("button", { name: "Compare" })).toBeDisabled();
  await page.getByLabel(`Pick run ${otherRun}`).uncheck();
  await page.getByLabel(`Pick run ${runs[3]}`).uncheck();
  await picker.getByRole("link", { name: "Compare" }).click();
  await expect(page).toHaveURL(new RegExp(`compare-runs\\?runs=${runs.slice(0, 3).join(",")}$`));

  await expect(page.getByRole("heading", { name: "Compare runs" })).toBeVisible();
  await expect(page.getByLabel(`Run ${runs[0]}`, { exact: true })).toContainText("baseline");
  await expect(page.getByText("Runs of different templates")).toHaveCount(0);

  // parameters: the differing variables highlighted, the equal ones behind a toggle
  const parameters = page.getByRole("table", { name: "Parameters" });
  const nap = parameters.getByRole("row", { name: /^vars\.nap/ });
  await expect(nap).toHaveAttribute("data-differs", "true");
  await expect(nap).toContainText("030");
  await expect(parameters.getByRole("row", { name: /^vars\.cipher/ })).toContainText("aes256");
  await expect(parameters.getByRole("row", { name: /^Inventory/ })).toHaveCount(0);
  await page.getByRole("button", { name: /^Show \d+ equal parameters$/ }).click();
  await expect(parameters.getByRole("row", { name: /^Inventory/ })).toContainText("localhost");
  await expect(parameters.getByRole("row", { name: /^Template/ })).toContainText("encrypt-perf");

  // tasks aligned by occurrence: the first "step" slept 3 s more in the second run
  const tasks = page.getByRole("table", { name: "Task durations" });
  const first = tasks.locator("tbody tr").first();
  await expect(first.getByRole("rowheader")).toHaveText("step");
  // slower by how much depends on the machine's load (+1.5 s seen at load 8: 5.0 s → 6.5 s)
  await expect(first).toContainText(/\+\d+\.\d s \(\+/);
  await expect(tasks.getByRole("rowheader", { name: "step (#2)" })).toBeVisible();
  await expect(tasks.locator("tfoot")).toContainText("Total (the whole run)");
  await page.getByText("Playbook order").click();
  await expect(tasks.locator("tbody tr").first().getByRole("rowheader")).toHaveText("warm up");

  // one time axis: hovering a task names it in every run, and shades it in the metrics
  const lane = page.getByRole("list", { name: `Tasks of run ${runs[1]} on the time axis` });
  await lane.getByRole("listitem", { name: new RegExp(`^step in run ${runs[1]}`) }).hover();
  await expect(page.getByText(/^step: #\d+ [\d.]+ s · #\d+ [3-9]\.\d s · /)).toBeVisible();
  await expect(page.getByText("Shaded: step in each run")).toBeVisible();
  // overlaid: one chart per metric, one line per run, named in its legend
  const cpu = page.getByRole("figure", { name: "CPU of the compared runs" });
  await expect(cpu.getByRole("img", { name: "CPU: user, one line per run" })).toHaveCount(1);
  await expect(cpu.locator("canvas")).toHaveCount(1);
  await expect(cpu.locator(".u-legend")).toContainText(`#${runs[0]} baseline`);
  await cpu.locator("label", { hasText: /^system$/ }).click();
  await expect(cpu.getByRole("img", { name: "CPU: system, one line per run" })).toBeVisible();

  // a label, set where the runs are compared, names the run in every legend
  await page.getByRole("button", { name: `Label run ${runs[1]}` }).click();
  await page.getByLabel("Label", { exact: true }).fill("TDE on");
  await page.getByRole("button", { name: "Save label" }).click();
  await expect(page.getByLabel(`Run ${runs[1]}`, { exact: true })).toContainText("TDE on");
  await expect(cpu.locator(".u-legend")).toContainText(`#${runs[1]} · TDE on`);
  await expect(page.getByRole("table", { name: "Hosts" })).toContainText("localhost");
  await screenshot(page, { path: join(artifacts, "compare-runs-light.png"), fullPage: true });
  await cpu.scrollIntoViewIfNeeded();
  await pageShot(page, "compare-overlay", [1280]);

  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  await screenshot(page, { path: join(artifacts, "compare-runs-dark.png"), fullPage: true });
  await page.getByRole("button", { name: "Switch to light theme" }).click();

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(cpu.locator("canvas")).toBeVisible();
  expect(await overflowing(page)).toEqual([]);
  const rights = await page
    .locator("[aria-label$='one line per run'] canvas, [aria-label$='on the time axis']")
    .evaluateAll((elements) => elements.map((e) => e.getBoundingClientRect().right));
  for (const right of rights) expect(right).toBeLessThanOrEqual(390);
  await screenshot(page, { path: join(artifacts, "compare-runs-phone.png"), fullPage: true });
  await cpu.scrollIntoViewIfNeeded();
  await pageShot(page, "compare-overlay", [390]);

  // the runs list shows the label and the values given at launch, and filters by one
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/projects/${projectId}/runs?value=nap:3`);
  const listed = page.getByRole("table", { name: "Runs" }).locator("tbody tr");
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText(`#${runs[1]}`);
  await expect(listed).toContainText("TDE on");
  await expect(listed).toContainText("cipher=aes256");
});

test("mixed templates are flagged; fewer than two or more than four runs are refused", async ({
  page,
}) => {
  await openAs(page, `/projects/${projectId}/compare-runs?runs=${runs[0]},${otherRun}`);
  await expect(page.getByText("Runs of different templates")).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("encrypt-perf, other-perf");
  const tasks = page.getByRole("table", { name: "Task durations" });
  await expect(tasks.getByRole("row", { name: /^step/ }).first()).toContainText("not run");

  await page.goto(`/projects/${projectId}/compare-runs?runs=${runs[0]}`);
  await expect(page.getByText("Pick at least two runs to compare")).toBeVisible();
  await page.goto(`/projects/${projectId}/compare-runs?runs=${[...runs, otherRun].join(",")}`);
  await expect(page.getByText("At most 4 runs can be compared; 5 were picked.")).toBeVisible();
  await page.goto(`/projects/${projectId}/compare-runs?runs=${runs[0]},999999`);
  await expect(page.getByText("Run not found")).toBeVisible();
});

test("the template page charts its last runs and compares picked ones", async ({ page }) => {
  await openAs(page, `/projects/${projectId}/templates/${perfId}`, viewerName, PASSWORD);
  const performance = page.getByRole("region", { name: "Performance" });
  await expect(performance.getByLabel("Success, last 4 runs")).toContainText("100 %");
  await expect(performance.getByLabel("Success, last 30 days")).toContainText("4 of 4 ended runs");
  await expect(
    performance.getByRole("img", { name: "Duration of the last runs" }).locator("canvas"),
  ).toBeVisible();
  await expect(
    performance.getByRole("img", { name: "Slowest tasks over the last runs" }).locator("canvas"),
  ).toBeVisible();
  await expect(performance).toContainText(/step · mean [\d.]+ s/);
  // a viewer reads: no launch
  await expect(page.getByRole("link", { name: "Launch" })).toHaveCount(0);
  await screenshot(page, { path: join(artifacts, "template-page-light.png"), fullPage: true });

  await page
    .getByRole("tablist", { name: "Template sections" })
    .getByRole("tab", { name: "Runs" })
    .click();
  await page.getByLabel(`Pick run ${runs[2]}`).check();
  await page.getByLabel(`Pick run ${runs[1]}`).check();
  await page
    .getByRole("region", { name: "Compare runs" })
    .getByRole("link", { name: "Compare" })
    .click();
  // the older run is the baseline
  await expect(page).toHaveURL(new RegExp(`compare-runs\\?runs=${runs[1]},${runs[2]}$`));
  const step = page
    .getByRole("table", { name: "Task durations" })
    .locator("tbody tr", { has: page.getByRole("rowheader", { name: "step", exact: true }) });
  // faster than the 3 s baseline, by how much depends on the machine's load (3.4 s → 1.5 s seen)
  await expect(step).toContainText(/-\d+\.\d s \(-\d+ %\)/);
  await page.goBack();

  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(
    performance.getByRole("img", { name: "Duration of the last runs" }).locator("canvas"),
  ).toBeVisible();
  // the charts follow the new width when their resize observer has fired: wait for it
  await expect.poll(() => overflowing(page)).toEqual([]);
  await expect
    .poll(async () =>
      Math.max(
        ...(await performance
          .locator("canvas")
          .evaluateAll((elements) => elements.map((e) => e.getBoundingClientRect().right))),
      ),
    )
    .toBeLessThanOrEqual(390);
  await screenshot(page, { path: join(artifacts, "template-page-phone-dark.png"), fullPage: true });
  await page.getByRole("button", { name: "Switch to light theme" }).click();
});
