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
