import { describe, expect, it } from "vitest";
import { type HealthCheck, latencySeries, statusColor, unreachableSpells } from "./health";

function check(
  at: string,
  unreachable: boolean,
  inventory_id = 1,
  tcp: number | null = 1,
): HealthCheck {
  return {
    inventory_id,
    inventory: `inv${inventory_id}`,
    checked_at: at,
    status: unreachable ? "refused" : "reachable",
    unreachable,
    tcp_ms: unreachable ? null : tcp,
    banner_ms: unreachable ? null : 2,
    reason: unreachable ? "port 22: connection refused" : "",
    trigger: "periodic",
  };
}

describe("health", () => {
  it("charts oldest first with breaks where nothing was measured", () => {
    const series = latencySeries([
      check("2026-01-01T00:02:00Z", false, 1, 3),
      check("2026-01-01T00:01:00Z", true),
      check("2026-01-01T00:00:00Z", false, 1, 5),
    ]);
    expect(series.tcp).toEqual([5, null, 3]);
    expect(series.failed).toEqual([Date.parse("2026-01-01T00:01:00Z") / 1000]);
  });

  it("groups consecutive failed checks of an inventory into one spell", () => {
    const spells = unreachableSpells([
      check("2026-01-01T00:05:00Z", true),
      check("2026-01-01T00:04:00Z", true),
      check("2026-01-01T00:03:00Z", false),
      check("2026-01-01T00:02:00Z", true),
      check("2026-01-01T00:02:00Z", true, 2),
    ]);
    expect(spells.map((s) => [s.inventory, s.from, s.to, s.checks])).toEqual([
      ["inv1", "2026-01-01T00:04:00Z", "2026-01-01T00:05:00Z", 2],
      ["inv1", "2026-01-01T00:02:00Z", "2026-01-01T00:02:00Z", 1],
      ["inv2", "2026-01-01T00:02:00Z", "2026-01-01T00:02:00Z", 1],
    ]);
  });

  it("colours what failed red and what was not measured grey", () => {
    expect(statusColor("timeout")).toBe("red");
    expect(statusColor("reachable")).toBe("green");
    expect(statusColor("not_measured")).toBe("gray");
  });
});
