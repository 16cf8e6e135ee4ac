import type { Schemas } from "@/api/client";

export type HostRunMetrics = Schemas["HostRunMetrics"];

/** The chart's columns, one point per run (oldest first, as the server sends them): the run's
 * start in seconds, CPU mean and peak (% of the machine), memory peak (% of its memory; null
 * where the total was not measured). */
export function perRunSeries(runs: readonly HostRunMetrics[]) {
  return {
    times: runs.map((r) => r.start / 1000),
    cpuAvg: runs.map((r) => roundOrNull(r.cpu_avg)),
    cpuMax: runs.map((r) => roundOrNull(r.cpu_max)),
    memPeak: runs.map((r) =>
      r.mem_used_max != null && r.mem_total
        ? roundOrNull((100 * r.mem_used_max) / r.mem_total)
        : null,
    ),
  };
}

function roundOrNull(value: number | null | undefined): number | null {
  return value == null ? null : Math.round(value * 10) / 10;
}

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB"];

/** 1536 -> "1.5 KiB"; a rate adds "/s" itself. */
export function formatBytes(value: number | null | undefined): string {
  if (value == null) return "–";
  let size = value;
  let unit = 0;
  while (size >= 1024 && unit < UNITS.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(size)} B` : `${size.toFixed(1)} ${UNITS[unit]}`;
}

export function formatPercent(value: number | null | undefined): string {
  return value == null ? "–" : `${value.toFixed(1)} %`;
}
