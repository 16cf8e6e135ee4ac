import { type Page, expect as baseExpect, test } from "@playwright/test";
import { join } from "node:path";
import { Workbench } from "./run-workbench.ts";
import { artifacts } from "./server.ts";
import { screenshot } from "./admin-api.ts";

// full page loads on a busy CI machine take a few seconds
const expect = baseExpect.configure({ timeout: 15_000 });

const shot = (page: Page, name: string) =>
  screenshot(page, { path: join(artifacts, `${name}.png`), fullPage: true });

// thousands of lines before the failure, so it is far below the first screen
const FAILING = `- hosts: all
  gather_facts: false
  vars:
    db_password: hunter2
  tasks:
    - name: a long listing
      ansible.builtin.debug: {var: numbers}
      vars:
        numbers: "{{ range(0, 3000) | list }}"
    - name: a change
      ansible.builtin.command: "true"
    - name: check the replica
      ansible.builtin.fail: {msg: "replica is 42 s behind"}
    - name: never reached
      ansible.builtin.debug: {msg: "unreachable code"}
`;

test("open a failed run, jump to its failure, filter, see recap, timeline and parameters", async ({
  page,
}) => {
  const bench = await Workbench.create(page.request, "failed-runs", { "failing.yml": FAILING });
  const launched = await bench.launch("failing");
  const run = await bench.waitFinished(launched.id);
  expect(run.status).toBe("failed");
  expect(run.line_count).toBeGreaterThan(3000);

  // signed in: Workbench.create signed the admin in through page.request (the page\'s cookies)
  await page.goto(`/projects/${bench.projectId}/runs/${run.id}`);
  const log = page.getByRole("region", { name: "Run output" });
  await expect(log).toContainText("PLAY [all]");
  await expect(log).not.toContainText("replica is 42 s behind");

  await page.getByRole("button", { name: "Jump to first failure" }).click();
  const marked = log.locator("[data-highlight]");
  // the first line of the failed task's output (ansible-core 2.19: "[ERROR]: Task failed: …")
  await expect(marked).toContainText("replica is 42 s behind");
  await expect(marked).toBeInViewport();
  // ansible's red, rendered as a styled span rather than escape codes
  await expect(marked.locator("span span").first()).toHaveCSS("color", /rgb/);
  await shot(page, "13-run-failure");

  // a text filter lists matches; picking one shows it in the whole log
  await page.getByLabel("Search output").fill("2999");
  const matches = page.getByRole("region", { name: "Matching lines" });
  await expect(matches.getByRole("button")).toHaveCount(1);
  await shot(page, "14-run-filter");
  await matches.getByRole("button").first().click();
  await expect(log.locator("[data-highlight]")).toContainText("2999");

  await page
    .getByRole("tablist", { name: "Run details" })
    .getByRole("tab", { name: "Hosts" })
    .click();
  const recap = page.getByRole("table", { name: "Host recap" });
  await expect(recap).toContainText("localhost");
  await page.getByRole("tab", { name: "Timeline" }).click();
  await expect(page.getByRole("table", { name: "Slowest tasks" })).toContainText(
    "check the replica",
  );
  await shot(page, "15-run-timeline");
  await page.getByRole("tab", { name: "Parameters" }).click();
  await expect(page.getByRole("table", { name: "Run parameters" })).toContainText("failing.yml");

  // on a phone, in the dark
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await page.getByRole("tab", { name: "Output" }).click();
  await expect(log).toBeVisible();
  await shot(page, "16-run-phone-dark");
});
