import { expect as baseExpect, test } from "@playwright/test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pageShot } from "./admin-api.ts";
import { Workbench } from "./run-workbench.ts";

const expect = baseExpect.configure({ timeout: 30_000 });

const CONFIG = `- hosts: all
  gather_facts: false
  tasks:
    - name: write the listener config
      ansible.builtin.copy:
        dest: "{{ target_dir }}/listener.ora"
        content: "PORT=1521\\n"
    - name: ask the listener
      ansible.builtin.command: echo up
`;

test("plan a template, read what would change, apply exactly that", async ({ page }) => {
  const bench = await Workbench.create(page.request, "plans", { "listener.yml": CONFIG });
  // a new directory of the machine's /tmp, which runs on localhost see: the plan finds no
  // file there, its apply writes one
  const target = mkdtempSync(join(tmpdir(), "steward-e2e-plan-"));
  await bench.patch(bench.url(`templates/${bench.templateId("listener")}`), {
    plans_allowed: true,
    extra_vars: { target_dir: target },
  });

  await page.goto(`/projects/${bench.projectId}/templates`);
  await page.getByRole("button", { name: "Plan listener" }).click();
  const dialog = page.getByRole("dialog", { name: "Plan “listener”" });
  await dialog.getByRole("button", { name: "Plan" }).click();

  await expect(page.getByRole("heading", { name: /^Plan #\d+ · listener$/ })).toBeVisible();
  const plan = page.getByLabel("Plan", { exact: true });
  await expect(
    plan.getByRole("heading", { name: "Plan: 1 host changes, 1 task, 1 unknown" }),
  ).toBeVisible();
  // the unknown first (the command skips in check mode), then the diff of the file
  await expect(plan.getByText("unknown", { exact: true })).toBeVisible();
  await expect(plan.getByText("+PORT=1521")).toBeVisible();
  expect(existsSync(join(target, "listener.ora"))).toBe(false); // a plan changes nothing
  await pageShot(page, "plan-page");

  await plan.getByRole("button", { name: "Apply this plan" }).click();
  await expect(page.getByRole("heading", { name: /^Apply #\d+ · listener$/ })).toBeVisible();
  await expect(page.getByText(/^Apply of plan #\d+/)).toBeVisible();
  const applyId = Number(/\/runs\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1]);
  expect((await bench.waitFinished(applyId)).status).toBe("successful");
  // the apply changed what the plan said it would, and nothing else: no unplanned change
  expect(readFileSync(join(target, "listener.ora"), "utf8")).toBe("PORT=1521\n");
  await expect(page.getByText("1 changed", { exact: true })).toBeVisible();
  await expect(page.getByText(/unplanned change/)).toHaveCount(0);
  await pageShot(page, "plan-apply");
  rmSync(target, { recursive: true, force: true });
});
