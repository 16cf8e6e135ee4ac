/** A host's facts as rows of a key/value list: every leaf by its dotted path, searched by path
 * or value. */

export interface FactRow {
  path: string;
  value: string;
}

function segment(key: string): string {
  return key !== "" && !key.includes(".") && !key.includes("[") ? key : JSON.stringify(key);
}

/** The leaves of ``facts``, by dotted path, in key order; a list of plain values is one row,
 * a list of objects a row per item's leaf (``ansible_mounts.0.mount``); an empty object or list
 * is a row of its own. */
export function factRows(facts: Record<string, unknown>): FactRow[] {
  const rows: FactRow[] = [];
  const walk = (path: string, value: unknown) => {
    if (Array.isArray(value) && value.some((v) => v !== null && typeof v === "object")) {
      value.forEach((item, i) => walk(`${path}.${i}`, item));
      if (value.length === 0) rows.push({ path, value: "[]" });
      return;
    }
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const keys = Object.keys(value).sort();
      if (keys.length === 0) rows.push({ path, value: "{}" });
      for (const key of keys) {
        walk(
          path ? `${path}.${segment(key)}` : segment(key),
          (value as Record<string, unknown>)[key],
        );
      }
      return;
    }
    rows.push({ path, value: showValue(value) });
  };
  walk("", facts);
  return rows;
}

/** A fact's value as text: strings as they are, anything else as JSON. */
export function showValue(value: unknown): string {
  if (value === undefined) return "—";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The rows whose path or value holds every word of ``search`` (case-insensitive); the
 * ``ansible_`` prefix may be left out ("kernel" finds ansible_kernel). */
export function searchFacts(rows: readonly FactRow[], search: string): FactRow[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...rows];
  return rows.filter((row) => {
    const text = `${row.path} ${row.value}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
