import { type Page, expect as baseExpect, test } from "@playwright/test";
import { join } from "node:path";
import { Workbench, renderedLines } from "./run-workbench.ts";
import { artifacts } from "./server.ts";
import { screenshot } from "./admin-api.ts";

// full page loads on a busy CI machine take a few seconds
const expect = baseExpect.configure({ timeout: 15_000 });

const shot = (page: Page, name: string) =>
  screenshot(page, { path: join(artifacts, `${name}.png`), fullPage: true });

// one line of output a second or so, for minutes: long enough to watch, and to cancel
const SLOW = `- hosts: all
  gather_facts: false
  tasks:
    - name: warm up
      ansible.builtin.debug: {msg: "starting the slow run"}
    - name: tick
      ansible.builtin.debug: {msg: "tick {{ item }}"}
      loop: "{{ range(1, 400) | list }}"
      loop_control: {pause: 1}
`;

test("launch a run, watch its lines arrive live (surviving a dropped connection), cancel it", async ({
  page,
}) => {
  const bench = await Workbench.create(page.request, "live-runs", { "slow.yml": SLOW });
  // signed in: Workbench.create signed the admin in through page.request (the page\'s cookies)
  await page.goto(`/projects/${bench.projectId}/templates`);
  await page.getByRole("button", { name: "Launch slow" }).click();
  // a launch dialog (overrides, survey) may come first: its defaults will do
  let submitted = false;
  await expect(async () => {
    const dialog = page.getByRole("dialog");
    if (!submitted && (await dialog.isVisible())) {
      await dialog.getByRole("button", { name: /^launch/i }).click();
      submitted = true;
    }
    expect(page.url()).toMatch(/\/projects\/\d+\/runs\/\d+$/);
  }).toPass({ timeout: 15_000 });
  const runId = Number(page.url().split("/").pop());
  await expect(page.getByRole("heading", { name: new RegExp(`Run #${runId}`) })).toBeVisible();
  const log = page.getByRole("region", { name: "Run output" });
  await expect(log).toContainText("tick 1", { timeout: 30_000 });
  await expect(page.getByText("running", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Live")).toBeVisible();

  // new lines keep arriving while the run is still running
  await expect(log).toContainText("tick 3", { timeout: 15_000 });
  expect((await bench.run(runId)).status).toBe("running");
  await shot(page, "10-run-live");

  // the network drops and comes back: the stream resumes where it stopped
  await page.context().setOffline(true);
  await page.waitForTimeout(2500);
  await page.context().setOffline(false);
  await expect(log).toContainText("tick 7", { timeout: 20_000 });
  await expect(page.getByLabel("Live")).toBeVisible({ timeout: 15_000 });
  const rows = await renderedLines(page);
  const numbers = rows.map((row) => row.n);
  // consecutive line numbers, none missing or repeated, and every one loaded
  expect(numbers).toEqual(numbers.map((_, i) => (numbers[0] ?? 0) + i));
  expect(rows.every((row) => row.text !== "…")).toBe(true);
  const ticks = rows.flatMap((row) => /"tick (\d+)"/.exec(row.text)?.[1] ?? []).map(Number);
  expect(new Set(ticks).size).toBe(ticks.length);

  await page.getByRole("button", { name: "Cancel run" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel run" }).click();
  await expect(page.getByText("canceled", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Cancel run" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Relaunch" })).toBeVisible();
  expect((await bench.run(runId)).status).toBe("canceled");
  await shot(page, "11-run-canceled");

  // the runs list links to it, and filters by status through the URL
  await page.getByRole("link", { name: "← Runs" }).click();
  await expect(page.getByRole("link", { name: `#${runId}` })).toBeVisible();
  await page.goto(`/projects/${bench.projectId}/runs?status=failed`);
  await expect(page.getByText("No run matches these filters.")).toBeVisible();
  await page.goto(`/projects/${bench.projectId}/runs?status=canceled,failed`);
  await expect(page.getByRole("link", { name: `#${runId}` })).toBeVisible();
  await shot(page, "12-runs-filtered");
});

test("run an ad-hoc command from the inventories page and watch it live", async ({ page }) => {
  const bench = await Workbench.create(page.request, "adhoc-commands", {});
  await page.goto(`/projects/${bench.projectId}/inventories`);
  await page.getByRole("button", { name: "Run a command on localhost" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("textbox", { name: "Module" }).click();
  await page.getByRole("option", { name: "command", exact: true }).click();
  // the text is data: the braces reach the command as written
  await dialog.getByLabel("Arguments").fill("echo adhoc-from-ui {{ 6 * 7 }}");
  await dialog.getByLabel("Hosts").fill("localhost");
  await dialog.getByRole("button", { name: "Run", exact: true }).click();
  await expect(page).toHaveURL(/\/projects\/\d+\/runs\/\d+$/, { timeout: 15_000 });
  const runId = Number(page.url().split("/").pop());
  await expect(
    page.getByRole("heading", { name: new RegExp(`Ad-hoc command #${runId}`) }),
  ).toBeVisible();
  const log = page.getByRole("region", { name: "Run output" });
  await expect(log).toContainText("adhoc-from-ui {{ 6 * 7 }}", { timeout: 30_000 });
  await expect(page.getByText("successful", { exact: true })).toBeVisible({ timeout: 30_000 });
  await shot(page, "12-adhoc-run");
  expect((await bench.run(runId)).status).toBe("successful");

  // relaunched as it was: a new ad-hoc run, live
  await page.getByRole("button", { name: "Relaunch" }).click();
  await page.getByRole("menuitem", { name: "All hosts" }).click();
  await expect(page).not.toHaveURL(new RegExp(`/runs/${runId}$`), { timeout: 15_000 });
  await expect(page.getByRole("heading", { name: /Ad-hoc command #\d+/ })).toBeVisible();
  await expect(log).toContainText("adhoc-from-ui {{ 6 * 7 }}", { timeout: 30_000 });
});
