import type { Schemas } from "@/api/client";
import { STACK_ORDER } from "@/features/dashboard/lib/status";
import { runStatusLabel } from "@/lib/run-status";

type DayCounts = Schemas["DayCounts"];

/** A round top for the y axis at or above `max` (1, 2, 5 x 10^n), never 0. */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((m) => m * power >= max) ?? 10;
  return step * power;
}

/** Show every n-th day's label so that labels stay `minGap` pixels apart. */
export function labelStride(days: number, width: number, minGap = 36): number {
  if (days <= 0 || width <= 0) return 1;
  return Math.max(1, Math.ceil((minGap * days) / width));
}

export interface Segment {
  status: Schemas["RunStatus"];
  count: number;
  /** from the bottom, in runs */
  from: number;
}

/** A day's stacked segments, bottom first, leaving out the statuses with no run. */
export function segments(day: DayCounts): Segment[] {
  let from = 0;
  const stacked: Segment[] = [];
  for (const status of STACK_ORDER) {
    const count = day.counts[status] ?? 0;
    if (count > 0) {
      stacked.push({ status, count, from });
      from += count;
    }
  }
  return stacked;
}

const dayFormat = new Intl.DateTimeFormat(undefined, {
  weekday: "short",
  day: "numeric",
  month: "short",
  timeZone: "UTC",
});
const shortFormat = new Intl.DateTimeFormat(undefined, { day: "numeric", timeZone: "UTC" });

/** A calendar day of the API ("2026-11-24") as a date at UTC midnight: formatted in UTC, it
 * stays that day whatever the reader's zone. */
function calendarDay(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

export const formatDay = (day: string) => dayFormat.format(calendarDay(day));
export const formatDayShort = (day: string) => shortFormat.format(calendarDay(day));

/** "Mon, 24 Nov: 3 runs — 2 successful, 1 failed" (the bar's accessible name and tooltip). */
export function describeDay(day: DayCounts): string {
  const parts = segments(day).map((s) => `${s.count} ${runStatusLabel(s.status)}`);
  const runs = `${day.total} ${day.total === 1 ? "run" : "runs"}`;
  return `${formatDay(day.day)}: ${runs}${parts.length ? ` — ${parts.join(", ")}` : ""}`;
}
