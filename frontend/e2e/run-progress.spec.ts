import { expect as baseExpect, test } from "@playwright/test";
import { Workbench } from "./run-workbench.ts";
import { pageShot } from "./admin-api.ts";

// full page loads on a busy CI machine take a few seconds
const expect = baseExpect.configure({ timeout: 15_000 });

const HOSTS = ["oradb01", "oradb02", "oradb03"];

// four tasks; on the second one oradb03 takes 10 s, long past the e2e server's 3 s quiet
// threshold (STEWARD_HOST_QUIET_MINUTES in server.ts), while the others are done in 1 s
const SLOW = `- hosts: all
  gather_facts: false
  tasks:
    - name: prepare
      ansible.builtin.debug: {msg: "preparing {{ inventory_hostname }}"}
    - name: patch the database
      ansible.builtin.command: "sleep {{ 10 if inventory_hostname == 'oradb03' else 1 }}"
    - name: verify
      ansible.builtin.debug: {msg: "verified"}
    - name: finish
      ansible.builtin.debug: {msg: "done"}
`;

// one host fails with a long message: an unbroken path that must wrap on a phone
const FAILING = `- hosts: all
  gather_facts: false
  tasks:
    - name: start the database
      ansible.builtin.fail:
        msg: "ORA-01034: ORACLE not available; ORA-27101: shared memory realm does not exist; see /u01/app/oracle/diag/rdbms/orcl/ORCL/trace/alert_ORCL_with_a_very_long_name_that_does_not_fit.log"
      when: inventory_hostname == 'oradb02'
    - name: after the start
      ansible.builtin.debug: {msg: "started"}
`;

test("a multi-host run shows its progress live, a failed one its first failure", async ({
  page,
}) => {
  const bench = await Workbench.create(
    page.request,
    "progress-runs",
    { "patch-slow.yml": SLOW, "patch-failing.yml": FAILING },
    HOSTS,
  );
  // the workbench signed in through the API: its cookie is the page's too
  const slow = await bench.launch("patch-slow");
  const failing = await bench.launch("patch-failing");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/projects/${bench.projectId}/runs/${slow.id}`);

  // while it runs: the task of the play, each host's task, hosts done, the quiet one flagged
  const progress = page.getByRole("region", { name: "Progress" });
  await expect(progress).toContainText("task 2 of 4: patch the database", { timeout: 20_000 });
  await expect(progress.getByLabel("Hosts so far")).toContainText("2 of 3 hosts done");
  await expect(page.getByRole("status", { name: "Quiet hosts" })).toContainText(
    /oradb03 quiet for \d+ s \(on “patch the database”\)/,
  );
  // what each host is doing: the Hosts tab, while it runs
  await progress.getByRole("button", { name: /What each host is doing/ }).click();
  const hostsNow = page.getByRole("table", { name: "Hosts now" });
  await expect(hostsNow.locator('[data-host="oradb03"]')).toContainText("patch the database");
  // the finished tasks are on the Timeline already
  await page.getByRole("tab", { name: "Timeline" }).click();
  await expect(page.getByRole("table", { name: "Slowest tasks" })).toContainText("prepare");
  expect((await bench.run(slow.id)).status).toBe("running");
  await pageShot(page, "run-progress-live", [1280]);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(progress).toBeVisible();
  await pageShot(page, "run-progress-live", [390]);
  expect((await bench.run(slow.id)).status).toBe("running");

  // once it ends, the recap replaces the progress
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(progress).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole("group", { name: "Recap" })).toContainText(/3 hosts: .* 3 changed/);

  // a failed run: its first failure at the top, wrapped, with the way to its line
  expect((await bench.waitFinished(failing.id)).status).toBe("failed");
  await page.goto(`/projects/${bench.projectId}/runs/${failing.id}`);
  const failure = page.getByRole("region", { name: "First failure" });
  await expect(failure).toContainText("Failed: task “start the database” on oradb02");
  await expect(failure).toContainText("ORA-01034: ORACLE not available");
  await pageShot(page, "run-failure-summary", [1280]);
  await failure.getByRole("button", { name: /Show it in the log/ }).click();
  const marked = page.getByRole("region", { name: "Run output" }).locator("[data-highlight]");
  await expect(marked).toContainText("ORA-01034");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(failure).toContainText("alert_ORCL");
  await failure.scrollIntoViewIfNeeded();
  const box = await failure.boundingBox();
  expect(box).not.toBeNull();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
  await pageShot(page, "run-failure-summary", [390]);

  // the runs list tells failed hosts apart from unreachable ones
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/projects/${bench.projectId}/runs`);
  const row = page.getByRole("row").filter({ hasText: `#${failing.id}` });
  await expect(row.getByLabel("Hosts")).toHaveText("3 hosts · 1 failed");
});
