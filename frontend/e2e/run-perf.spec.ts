// Measures (does not assert) how the run page handles a big finished run: first lines visible,
// scroll to the end, text filter. Used by the benchmark (bench/); skipped in the normal e2e.
//   npm run build && STEWARD_UI_PERF=1 npx playwright test e2e/run-perf.spec.ts
// STEWARD_UI_PERF_LINES sets the run's size (default 200000). The figures are printed as one
// JSON line and written to test-artifacts/run-perf.json.
import { type Page, expect, test } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Workbench, signIn } from "./run-workbench.ts";
import { artifacts } from "./server.ts";

const LINES = Number(process.env.STEWARD_UI_PERF_LINES ?? 200_000);

const BIG = `- hosts: all
  gather_facts: false
  tasks:
    - name: print many lines
      ansible.builtin.shell: "seq 1 ${LINES}"
      register: out
      changed_when: false
    - name: show them
      ansible.builtin.debug: {var: out.stdout_lines}
`;

/** ms from `since` (page clock) until the row of line `n` shows its text. */
function untilLineShown(page: Page, n: number | "last", since: number) {
  return page.waitForFunction(
    ([line, start]) => {
      const log = document.querySelector<HTMLElement>('[role="region"][aria-label="Run output"]');
      if (!log) return null;
      const rows = log.querySelectorAll("[data-line]");
      const row =
        line === "last" ? rows[rows.length - 1] : log.querySelector(`[data-line="${line}"]`);
      if (!row || row.querySelector('[aria-label="loading"]')) return null;
      if (line === "last" && row.getAttribute("data-line") !== log.dataset.lastLine) return null;
      return performance.now() - start;
    },
    [n, since] as const,
    { polling: "raf", timeout: 60_000 },
  );
}

test("performance of a big finished run (measured, not asserted)", async ({ page }) => {
  test.skip(process.env.STEWARD_UI_PERF !== "1", "set STEWARD_UI_PERF=1 to measure");
  test.setTimeout(900_000);

  const bench = await Workbench.create(page.request, "ui-perf", { "big.yml": BIG });
  const launched = await bench.launch("big");
  const run = await bench.waitFinished(launched.id, 600_000);
  expect(run.status).toBe("successful");
  const lastLine = run.line_count - 1;
  await signIn(page);
  const url = `/projects/${bench.projectId}/runs/${run.id}`;

  // 1a. a full page load (bundle, session, project, run, first chunk): from navigation start
  await page.goto(url, { waitUntil: "commit" });
  const firstLinesLoad = await (await untilLineShown(page, 0, 0)).jsonValue();

  // 1b. from the runs list inside the loaded console (the usual way in)
  await page.goto(`/projects/${bench.projectId}/runs`);
  const link = page.getByRole("link", { name: `#${run.id}` });
  await link.waitFor();
  const clickedAt = await page.evaluate(() => performance.now());
  await link.click();
  const firstLinesNav = await (await untilLineShown(page, 0, clickedAt)).jsonValue();
  console.log(JSON.stringify({ ui_perf_clicked_at: Math.round(clickedAt) }));

  // 2. scroll to the end: the last line's chunk is fetched and shown
  const log = page.getByRole("region", { name: "Run output" });
  await log.evaluate((element, last) => (element.dataset.lastLine = String(last)), lastLine);
  const scrolledAt = await log.evaluate((element) => {
    const start = performance.now();
    element.scrollTop = element.scrollHeight;
    return start;
  });
  const scrollToEnd = await (await untilLineShown(page, "last", scrolledAt)).jsonValue();
  const domRows = await log.locator("[data-line]").count();

  // 3. text filter over the whole run (the server searches; the 300 ms typing debounce included)
  const search = page.getByLabel("Search output");
  const filterAt = await page.evaluate(() => performance.now());
  await search.fill("12345");
  const matches = page.getByRole("region", { name: "Matching lines" });
  await matches.getByRole("button").first().waitFor({ timeout: 60_000 });
  const textFilter = (await page.evaluate(() => performance.now())) - filterAt;
  const matchCount = await page.getByText(/matching lines/).textContent();

  // 4. pick the last match: back in the whole log at that line
  const pickedAt = await page.evaluate(() => performance.now());
  await matches.getByRole("button").last().click();
  await log.locator("[data-highlight]").waitFor();
  const jumpToMatch = (await page.evaluate(() => performance.now())) - pickedAt;
  await page.screenshot({ path: join(artifacts, "20-run-perf-200k.png") });

  // where the time went: every API request the page made, with its start and duration
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
  console.log(JSON.stringify({ ui_perf_requests: requests }));

  const round = (ms: number | null) => (ms === null ? null : Math.round(ms));
  const figures = {
    lines: run.line_count,
    first_lines_visible_page_load_ms: round(firstLinesLoad),
    first_lines_visible_from_list_ms: round(firstLinesNav),
    scroll_to_end_ms: round(scrollToEnd),
    text_filter_ms: round(textFilter),
    text_filter_debounce_ms: 300,
    text_filter_matches: matchCount,
    jump_to_match_ms: round(jumpToMatch),
    dom_rows_rendered: domRows,
  };
  console.log(JSON.stringify({ ui_perf: figures }));
  writeFileSync(join(artifacts, "run-perf.json"), `${JSON.stringify(figures, null, 2)}\n`);
});
