import { createServer, type Server } from "node:net";
import { expect as baseExpect, test } from "@playwright/test";
import { overflowing, pageShot } from "./admin-api.ts";
import { Workbench } from "./run-workbench.ts";

const expect = baseExpect.configure({ timeout: 15_000 });

/** A listener on 127.0.0.1 that greets like an SSH server (the checks read its first line). */
async function sshLike(): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    socket.on("error", () => socket.destroy());
    socket.end("SSH-2.0-OpenSSH_9.2 e2e\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("no port");
  return { server, port: address.port };
}

/** A port of 127.0.0.1 nothing listens on. */
async function refusedPort(): Promise<number> {
  const { server, port } = await sshLike();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test("a host's health: latency over time, unreachable history, and the inventory's count", async ({
  page,
}) => {
  const { server, port } = await sshLike();
  const down = await refusedPort();
  try {
    const bench = await Workbench.create(page.request, "host-health", {});
    const inventory = await bench.post(bench.url("inventories"), {
      name: "remote",
      kind: "static",
      format: "ini",
      content: `bastion ansible_host=127.0.0.1 ansible_port=${port}\noradb09 ansible_host=127.0.0.1 ansible_port=${down}\n`,
    });
    for (let i = 0; i < 3; i += 1) {
      const checked = await bench.post(bench.url(`inventories/${inventory.id}/health`), {});
      expect(checked.unreachable).toBe(1);
    }

    await page.goto(`/projects/${bench.projectId}/inventories`);
    const inventories = page.getByRole("table", { name: "Inventories" });
    await expect(inventories.getByRole("row", { name: /remote/ })).toContainText(
      "1 of 2 unreachable now",
    );

    await page.goto(`/projects/${bench.projectId}/hosts/bastion`);
    const health = page.getByRole("region", { name: "Health" });
    await expect(health.getByText("reachable", { exact: true })).toBeVisible();
    await expect(health).toContainText("in remote");
    await expect(health.getByRole("img", { name: "Latency over time" })).toBeVisible();
    await health.getByRole("button", { name: "Check now" }).click();
    await expect(health).toContainText("Not unreachable in this period.");
    await pageShot(page, "host-health");

    await page.goto(`/projects/${bench.projectId}/hosts/oradb09`);
    const failing = page.getByRole("region", { name: "Health" });
    await expect(failing.getByText("refused", { exact: true })).toBeVisible();
    const spells = failing.getByRole("table", { name: "Unreachable history" });
    await expect(spells).toContainText("3 checks");
    await expect(spells).toContainText(`port ${down}: connection refused`);
    await pageShot(page, "host-health-unreachable");
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(spells).toBeVisible();
    expect(await overflowing(page)).toEqual([]);
  } finally {
    server.close();
  }
});
