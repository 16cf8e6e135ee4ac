// Measures (does not assert) how the plan page of a big plan shows: the summary line and the
// first task, from navigation start. Used by the benchmark (bench/plan_page.py), which starts
// its own server with a plan of 200 hosts x 50 tasks inserted directly; skipped in the normal
// e2e. The figures are printed as one JSON line and written to test-artifacts/plan-perf.json.
//   STEWARD_PLAN_PERF=1 STEWARD_PLAN_PERF_URL=http://127.0.0.1:PORT \
//   STEWARD_PLAN_PERF_PASSWORD=… STEWARD_PLAN_PERF_PAGE=/projects/1/runs/1 \
//   npx playwright test e2e/plan-perf.spec.ts --workers=1
import { expect, test } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { artifacts } from "./server.ts";

test("the plan page of a big plan (measured, not asserted)", async ({ page }) => {
  test.skip(process.env.STEWARD_PLAN_PERF !== "1", "set STEWARD_PLAN_PERF=1 to measure");
  test.setTimeout(300_000);
  const root = process.env.STEWARD_PLAN_PERF_URL ?? "";
  const planPage = process.env.STEWARD_PLAN_PERF_PAGE ?? "";

  await page.goto(`${root}/login?next=/projects`);
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(process.env.STEWARD_PLAN_PERF_PASSWORD ?? "");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();

  const summary = page.getByRole("heading", { name: /^Plan: \d+ hosts? changes?/ });
  const firstTask = page.getByLabel(/^Task /).first();
  const samples: { summary: number; task: number }[] = [];
  for (let n = 0; n < 5; n++) {
    // a full page load each time (bundle from the cache, session, run, plan): from its start
    await page.goto("about:blank");
    await page.goto(`${root}${planPage}`, { waitUntil: "commit" });
    await summary.waitFor({ timeout: 60_000 });
    const summaryAt = await page.evaluate(() => performance.now());
    await firstTask.waitFor({ timeout: 60_000 });
    const taskAt = await page.evaluate(() => performance.now());
    samples.push({ summary: summaryAt, task: taskAt });
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
  const requests = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((entry) => entry.name.includes("/api/"))
      .map((entry) => ({
        url: entry.name.replace(location.origin, ""),
        start: Math.round(entry.startTime),
        ms: Math.round(entry.duration),
      })),
  );
  console.log(JSON.stringify({ plan_perf_requests: requests }));
  await page.screenshot({ path: join(artifacts, "21-plan-perf.png") });
  const figures = {
    summary_visible_page_load_ms: Math.round(median(samples.map((s) => s.summary)) ?? 0),
    summary_visible_worst_ms: Math.round(Math.max(...samples.map((s) => s.summary))),
    first_task_visible_page_load_ms: Math.round(median(samples.map((s) => s.task)) ?? 0),
    task_cards_rendered: await page.getByLabel(/^Task /).count(),
    loads: samples.length,
  };
  console.log(JSON.stringify({ plan_perf: figures }));
  writeFileSync(join(artifacts, "plan-perf.json"), `${JSON.stringify(figures, null, 2)}\n`);
});
