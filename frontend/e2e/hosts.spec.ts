import { expect as baseExpect, test } from "@playwright/test";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { overflowing, pageShot } from "./admin-api.ts";
import { Workbench } from "./run-workbench.ts";

const expect = baseExpect.configure({ timeout: 15_000 });

// patches oradb01 only: the other host is reached, and nothing changes there; the pause gives
// the host metrics a few samples
const PATCH = `- hosts: all
  gather_facts: false
  tasks:
    - name: apply the patch
      ansible.builtin.command: "true"
      changed_when: inventory_hostname == 'oradb01'
    - name: settle
      ansible.builtin.command: sleep 2
      changed_when: false
`;

/** Enough of pmproxy's REST API for a run to sample its hosts, on 127.0.0.1: a context, and
 * counters that grow by the same amounts at each fetch (30 % user, 10 % system CPU of 2 CPUs,
 * half of 4 GiB of memory used). */
async function pmproxyStandIn(): Promise<{ server: Server; url: string }> {
  let fetches = 0;
  const server = createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0];
    response.setHeader("content-type", "application/json");
    if (path === "/pmapi/context") {
      response.end(JSON.stringify({ context: 7 }));
      return;
    }
    fetches += 1;
    const counters: Record<string, number> = {
      "hinv.ncpu": 2,
      "kernel.all.cpu.user": 600 * fetches,
      "kernel.all.cpu.sys": 200 * fetches,
      "kernel.all.cpu.wait.total": 0,
      "kernel.all.cpu.nice": 0,
      "kernel.all.cpu.idle": 1200 * fetches,
      "kernel.all.cpu.intr": 0,
      "kernel.all.cpu.steal": 0,
      "mem.physmem": 4 * 1024 * 1024,
      "mem.util.available": 2 * 1024 * 1024,
      "disk.all.read": 10 * fetches,
      "disk.all.write": 20 * fetches,
      "disk.all.read_bytes": 64 * fetches,
      "disk.all.write_bytes": 128 * fetches,
      "network.all.in.packets": 50 * fetches,
      "network.all.out.packets": 40 * fetches,
      "network.all.in.bytes": 8192 * fetches,
      "network.all.out.bytes": 4096 * fetches,
    };
    response.end(
      JSON.stringify({
        timestamp: Date.now() / 1000,
        values: Object.entries(counters).map(([name, value]) => ({
          name,
          instances: [{ instance: null, value }],
        })),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test("a run's hosts are listed, searchable, and each page says what ran on it", async ({
  page,
}) => {
  const bench = await Workbench.create(page.request, "hosts-view", { "patch.yml": PATCH }, [
    "oradb01",
    "oradb02",
  ]);
  const pmproxy = await pmproxyStandIn();
  const inventories = await page.request.get(bench.url("inventories"));
  const [inventory] = ((await inventories.json()) as { items: { id: number }[] }).items;
  expect(inventory).toBeDefined();
  await bench.patch(bench.url(`inventories/${inventory?.id}`), { metrics_endpoint: pmproxy.url });
  const run = await bench.waitFinished((await bench.launch("patch")).id);
  pmproxy.server.close();
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
  // its metrics from the run: a point on the chart, the run's figures below it
  const metrics = page.getByRole("region", { name: "Metrics" });
  await expect(
    metrics.getByRole("img", { name: "Metrics per run" }).locator("canvas"),
  ).toBeVisible();
  const newest = metrics.getByRole("table", { name: "Newest runs' metrics" });
  await expect(newest).toContainText(`#${run.id} patch`);
  await expect(newest).toContainText("40.0 % / 40.0 %"); // CPU mean / peak: user + system
  await expect(newest).toContainText("2.0 GiB"); // memory peak
  await pageShot(page, "host-page");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(runs).toBeVisible();
  await expect(
    metrics.getByRole("img", { name: "Metrics per run" }).locator("canvas"),
  ).toBeVisible();
  expect(await overflowing(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });

  // every project's hosts' health, for admins
  await page.goto("/admin/hosts");
  const health = page.getByRole("region", { name: "Health of every host" });
  await expect(health).toContainText(/\d+ of \d+ hosts? unreachable now/);
});
