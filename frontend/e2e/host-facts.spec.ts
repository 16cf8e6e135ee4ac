import { expect as baseExpect, test } from "@playwright/test";
import { overflowing, pageShot } from "./admin-api.ts";
import { Workbench } from "./run-workbench.ts";

const expect = baseExpect.configure({ timeout: 15_000 });

// gathers the few facts of gather_subset min, and one of its own
const GATHER = `- hosts: all
  gather_facts: true
  gather_subset: [min]
  tasks:
    - ansible.builtin.set_fact: {steward_stage: first, cacheable: true}
`;
// gathers nothing, changes the fact of its own: the host's facts change once
const CHANGE = `- hosts: all
  gather_facts: false
  tasks:
    - ansible.builtin.set_fact: {steward_stage: second, cacheable: true}
`;

test("a host's facts are listed, searchable, and two points compared", async ({ page }) => {
  const bench = await Workbench.create(page.request, "host-facts", {
    "gather.yml": GATHER,
    "change.yml": CHANGE,
  });
  for (const template of ["gather", "change"]) {
    const run = await bench.waitFinished((await bench.launch(template)).id);
    expect(run.status).toBe("successful");
  }

  await page.goto(`/projects/${bench.projectId}/hosts/localhost`);
  await expect(page.getByRole("heading", { name: "Facts", exact: true })).toBeVisible();
  const current = page.getByRole("table", { name: "Current facts" });
  await expect(current).toContainText("steward_stage");
  await page.getByLabel("Search the facts").fill("kernel");
  await expect(current.getByRole("row", { name: /ansible_kernel/ }).first()).toBeVisible();
  await expect(current).not.toContainText("steward_stage");
  await page.getByLabel("Search the facts").fill("steward_stage");
  await expect(current.getByRole("row")).toHaveCount(2); // the header and the fact
  await expect(current).toContainText("second");

  // the two newest points are compared by default
  await expect(page.getByText("1 other fact", { exact: true })).toBeVisible();
  const changes = page.getByRole("table", { name: "Fact changes" });
  await expect(changes.getByRole("row", { name: /steward_stage/ })).toContainText("first");
  await expect(changes.getByRole("row", { name: /steward_stage/ })).toContainText("second");
  await page
    .getByRole("heading", { name: "Facts", exact: true })
    .evaluate((heading) => heading.scrollIntoView({ block: "start" }));
  await pageShot(page, "host-facts");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(changes).toBeVisible();
  expect(await overflowing(page)).toEqual([]);
});
