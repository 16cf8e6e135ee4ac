/** The hosts list's search: part of the name, an inventory group, an inventory variable
 * ("name=value", or a name alone for the hosts that have it). */
export interface HostFilters {
  q?: string;
  group?: string;
  var?: string;
}

/** A host's runs: a time range (ISO 8601). */
export interface HostRunFilters {
  since?: string;
  until?: string;
}

export interface HostSearchValues {
  q: string;
  group: string;
  variable: string;
}

/** The search form's values as the API's filters (blank fields left out). */
export function toHostFilters(values: HostSearchValues): HostFilters {
  const filters: HostFilters = {};
  if (values.q.trim()) filters.q = values.q.trim();
  if (values.group.trim()) filters.group = values.group.trim();
  if (values.variable.trim()) filters.var = values.variable.trim();
  return filters;
}

/** A date input's value (YYYY-MM-DD, the reader's day) as the start of that day, ISO 8601;
 * `end`: the start of the next day, so the day itself is included. */
export function dayBound(day: string, end = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T00:00:00`);
  if (Number.isNaN(date.getTime())) return undefined;
  if (end) date.setDate(date.getDate() + 1);
  return date.toISOString();
}

/** Filters as a URL query (blank values left out). */
export function queryString(filters: object): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) {
    if (value !== undefined && value !== "") params.set(name, String(value));
  }
  return params.toString();
}
