// Host metrics beside the timeline: after a run with a CPU burst, the Timeline tab shows the
// controller's CPU, memory, disk and network charts (and the run's own processes) on the time
// axis of its tasks; hovering a task shades its interval and names it; the charts follow the
// dark scheme and fit a phone's width.
import { expect as baseExpect, request, test } from "@playwright/test";
import { join } from "node:path";
import { openAs, screenshot } from "./admin-api.ts";
import { Workbench } from "./run-workbench.ts";
import { artifacts } from "./server.ts";

const expect = baseExpect.configure({ timeout: 20_000 });

const BURST = `- hosts: all
  gather_facts: false
  tasks:
    - name: rest
      ansible.builtin.command: sleep 2
    - name: burn
      ansible.builtin.shell: timeout 3 sh -c 'while :; do :; done'; exit 0
    - name: rest again
      ansible.builtin.command: sleep 2
`;

let bench: Workbench;
let runId = 0;
let otherRunId = 0;

test.beforeAll(async ({ baseURL }) => {
  const context = await request.newContext({ baseURL });
  bench = await Workbench.create(context, `run-metrics-${Date.now()}`, { "burst.yml": BURST });
  // both at once: neither test needs them apart, and their sleeps overlap
  runId = (await bench.launch("burst")).id;
  otherRunId = (await bench.launch("burst")).id;
  await Promise.all([bench.waitFinished(runId), bench.waitFinished(otherRunId)]);
});

test("the timeline shows the machine's metrics and shades a hovered task", async ({ page }) => {
  await openAs(page, `/projects/${bench.projectId}/runs/${runId}`);
  await page.getByRole("tab", { name: "Timeline" }).click();
  await expect(page.getByRole("heading", { name: "Host metrics" })).toBeVisible();
  for (const chart of ["CPU", "Memory", "Disk", "Network"]) {
    const figure = page.getByRole("img", { name: `${chart} over the run` });
    await expect(figure.locator("canvas")).toBeVisible();
  }
  await expect(page.getByRole("img", { name: /This run's processes/ })).toBeVisible();
  const tasks = page.getByRole("list", { name: "Tasks on the time axis" });
  await tasks.getByRole("listitem", { name: /^burn on localhost/ }).hover();
  await expect(page.getByText(/^burn on localhost: /)).toBeVisible();
  await screenshot(page, { path: join(artifacts, "metrics-light.png"), fullPage: true });

  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  await expect(page.getByRole("img", { name: "CPU over the run" }).locator("canvas")).toBeVisible();
  await screenshot(page, { path: join(artifacts, "metrics-dark.png"), fullPage: true });
  await page.getByRole("button", { name: "Switch to light theme" }).click();

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("img", { name: "CPU over the run" }).locator("canvas")).toBeVisible();
  // every chart and the task strip within the window (the slowest-tasks table below scrolls
  // in its own box)
  const rights = await page
    .locator("[aria-label$='over the run'] canvas, [aria-label='Tasks on the time axis']")
    .evaluateAll((elements) => elements.map((e) => e.getBoundingClientRect().right));
  expect(rights.length).toBeGreaterThanOrEqual(6);
  for (const right of rights) expect(right).toBeLessThanOrEqual(390);
  await screenshot(page, { path: join(artifacts, "metrics-phone.png"), fullPage: true });

  const csv = await page.request.get(
    `/api/v1/projects/${bench.projectId}/runs/${runId}/metrics/export?format=csv`,
  );
  expect((await csv.text()).split("\n")[0]).toContain("time,kind,host,cpu.user");
});

test("two runs compare task by task, their metrics on one axis", async ({ page }) => {
  await openAs(page, `/projects/${bench.projectId}/runs/${runId}`);
  await page.getByRole("tab", { name: "Timeline" }).click();
  await page.getByRole("link", { name: "Compare with other runs" }).click();
  await expect(page.getByRole("heading", { name: "Compare runs" })).toBeVisible();
  await expect(page.getByText("Pick at least two runs to compare")).toBeVisible();
  const runs = page.getByRole("textbox", { name: "Runs" });
  await runs.fill(`${runId}, ${otherRunId}`);
  await runs.press("Enter");

  const table = page.getByRole("table", { name: "Task durations" });
  await expect(table.locator("tbody tr")).toHaveCount(3); // rest, burn, rest again
  await expect(table.getByRole("columnheader", { name: `#${otherRunId}` })).toBeVisible();
  await expect(table.getByRole("row", { name: /^burn/ })).toContainText(" s");
  await page.getByRole("textbox", { name: "Seconds from" }).click();
  await page.getByRole("option", { name: "the start of burn" }).click();
  // one chart per metric, a line per run on a shared axis
  for (const chart of ["CPU", "Memory", "This run's processes (CPU, % of one core)"]) {
    const figure = page.getByRole("figure", { name: `${chart} of the compared runs` });
    await expect(figure.locator("canvas")).toBeVisible();
  }
  await screenshot(page, { path: join(artifacts, "compare-light.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const figures = page.locator("figure[aria-label$=' of the compared runs'] canvas");
  await expect(async () => {
    const rights = await figures.evaluateAll((elements) =>
      elements.map((e) => e.getBoundingClientRect().right),
    );
    expect(rights.length).toBeGreaterThanOrEqual(3);
    for (const right of rights) expect(right).toBeLessThanOrEqual(390);
  }).toPass({ timeout: 15_000 }); // the charts follow the new width on their next frame
  await screenshot(page, { path: join(artifacts, "compare-phone.png"), fullPage: true });
});
