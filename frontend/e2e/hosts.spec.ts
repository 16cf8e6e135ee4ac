import { expect as baseExpect, test } from "@playwright/test";
import { overflowing, pageShot } from "./admin-api.ts";
import { Workbench } from "./run-workbench.ts";

const expect = baseExpect.configure({ timeout: 15_000 });

// patches oradb01 only: the other host is reached, and nothing changes there
const PATCH = `- hosts: all
  gather_facts: false
  tasks:
    - name: apply the patch
      ansible.builtin.command: "true"
      changed_when: inventory_hostname == 'oradb01'
`;

test("a run's hosts are listed, searchable, and each page says what ran on it", async ({
  page,
}) => {
  const bench = await Workbench.create(page.request, "hosts-view", { "patch.yml": PATCH }, [
    "oradb01",
    "oradb02",
  ]);
  const run = await bench.waitFinished((await bench.launch("patch")).id);
  expect(run.status).toBe("successful");

  await page.goto(`/projects/${bench.projectId}/hosts`);
  const hosts = page.getByRole("table", { name: "Hosts" });
  await expect(hosts.getByRole("row")).toHaveCount(3); // the header and two hosts
  await expect(hosts.getByRole("row", { name: /oradb01/ })).toContainText("changed");
  await expect(hosts.getByRole("row", { name: /oradb02/ })).toContainText("ok");

  await page.getByLabel("Name").fill("db02");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(hosts.getByRole("row")).toHaveCount(2);
  await page.getByRole("button", { name: "Clear" }).click();
  await expect(hosts.getByRole("row")).toHaveCount(3);
  await pageShot(page, "hosts-list");

  await hosts.getByRole("link", { name: "oradb01" }).click();
  await expect(page.getByRole("heading", { name: "oradb01" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Inventory localhost" })).toBeVisible();
  const runs = page.getByRole("table", { name: "Runs on this host" });
  await expect(runs).toContainText(`#${run.id} patch`);
  await expect(runs).toContainText("changed");
  await expect(page.getByRole("table", { name: "Changes on this host" })).toContainText(
    "apply the patch",
  );
  const exported = page.getByRole("link", { name: "Export as CSV" });
  await expect(exported).toHaveAttribute("href", /\/hosts\/oradb01\/runs\.csv$/);
  const csv = await page.request.get((await exported.getAttribute("href")) ?? "");
  expect(csv.ok()).toBe(true);
  expect((await csv.text()).split("\r\n")[1]).toMatch(
    new RegExp(`^${run.id},patch,successful,changed,admin`),
  );

  // a day range with no run in it, then back
  await page.getByLabel("From (day)").fill("2001-01-01");
  await page.getByLabel("To (day)").fill("2001-01-02");
  await expect(page.getByText("No run reached it in these days.")).toBeVisible();
  await page.getByLabel("From (day)").fill("");
  await page.getByLabel("To (day)").fill("");
  await expect(runs).toContainText(`#${run.id} patch`);
  await pageShot(page, "host-page");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(runs).toBeVisible();
  expect(await overflowing(page)).toEqual([]);
});
