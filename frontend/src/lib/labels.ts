/** Template labels, as the server keeps them (bounds.TemplateLabel): short lower-case slugs,
 * sorted, each once. A freeze window with labels freezes the templates carrying one. */

/** At most this many on a template or a freeze window (the server's bound). */
export const LABELS_MAX = 20;
/** Characters of one label (the server's bound). */
export const LABEL_MAX = 40;

/** One typed label as a slug: lower case, other characters as "-", starting with a letter or
 * digit, cut to `LABEL_MAX`; "" when nothing is left. */
export function labelOf(typed: string): string {
  return typed
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .slice(0, LABEL_MAX);
}

/** Labels typed in a labels field as the server keeps them: slugs, without blanks and
 * repeats, sorted. */
export function labelNames(values: readonly string[]): string[] {
  return [...new Set(values.map(labelOf).filter((v) => v !== ""))].sort();
}
