const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A server timestamp (ISO 8601, UTC) in the reader's locale and time zone. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** "1 matching line", "2 matching lines": a count and its noun, singular only for one. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? singular : pluralForm}`;
}

/** A success rate (0..1, the API's) as a percentage: 0.923 -> "92.3 %", null -> "—". */
export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return "—";
  const pct = rate * 100;
  return `${pct.toFixed(pct === 100 || pct === 0 || pct >= 99.95 ? 0 : 1).replace(/\.0$/, "")} %`;
}

/** "8 s", "3 min 05 s", "2 h 07 min": a whole number of seconds, as a person reads it. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} min ${String(whole % 60).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}
