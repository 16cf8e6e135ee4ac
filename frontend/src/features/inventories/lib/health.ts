import type { Schemas } from "@/api/client";

type InventoryHealth = Schemas["InventoryHealth"];

/** "2 of 40 unreachable now" (red), "all 40 reachable now", or "not checked" (grey), from its
 * hosts' latest health checks. */
export function healthSummary(health: InventoryHealth | null | undefined): {
  text: string;
  color: string;
} {
  if (!health || health.checked === 0) return { text: "not checked", color: "dimmed" };
  if (health.unreachable_now > 0) {
    return { text: `${health.unreachable_now} of ${health.hosts} unreachable now`, color: "red" };
  }
  const unchecked = health.hosts - health.checked;
  return {
    text: unchecked > 0 ? `none unreachable (${unchecked} not checked)` : "none unreachable now",
    color: "dimmed",
  };
}
