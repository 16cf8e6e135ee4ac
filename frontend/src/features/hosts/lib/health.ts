import type { Schemas } from "@/api/client";

export type HealthCheck = Schemas["HealthCheckRead"];
export type HealthStatus = Schemas["HealthLatest"]["status"];

const LABELS: Record<HealthStatus, string> = {
  reachable: "reachable",
  not_ssh: "not SSH",
  refused: "refused",
  timeout: "timed out",
  unreachable: "unreachable",
  blocked: "not allowed",
  local: "local",
  not_measured: "not measured",
};

export function statusLabel(status: HealthStatus): string {
  return LABELS[status];
}

/** red: the check failed; green: SSH answered; grey: nothing was measured */
export function statusColor(status: HealthStatus): string {
  if (status === "reachable") return "green";
  if (status === "local" || status === "not_measured" || status === "blocked") return "gray";
  return "red";
}

export function formatMs(value: number | null | undefined): string {
  if (value == null) return "–";
  return value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
}

/** The chart's columns, oldest first: seconds, TCP ms, banner ms (null where none), and the
 * failed checks' times (shaded). Checks of several inventories are one series: the host's. */
export function latencySeries(history: readonly HealthCheck[]) {
  const ordered = [...history].reverse();
  return {
    times: ordered.map((c) => Date.parse(c.checked_at) / 1000),
    tcp: ordered.map((c) => c.tcp_ms ?? null),
    banner: ordered.map((c) => c.banner_ms ?? null),
    failed: ordered.filter((c) => c.unreachable).map((c) => Date.parse(c.checked_at) / 1000),
  };
}

/** Unreachable spells, newest first: consecutive failed checks of one inventory are one spell
 * (from, to, how many checks, the last reason). */
export function unreachableSpells(history: readonly HealthCheck[]) {
  const spells: { inventory: string; from: string; to: string; checks: number; reason: string }[] =
    [];
  const open = new Map<number, (typeof spells)[number]>();
  for (const check of history) {
    const current = open.get(check.inventory_id);
    if (!check.unreachable) {
      open.delete(check.inventory_id);
      continue;
    }
    if (current) {
      current.from = check.checked_at;
      current.checks += 1;
    } else {
      const spell = {
        inventory: check.inventory,
        from: check.checked_at,
        to: check.checked_at,
        checks: 1,
        reason: check.reason,
      };
      spells.push(spell);
      open.set(check.inventory_id, spell);
    }
  }
  return spells;
}
