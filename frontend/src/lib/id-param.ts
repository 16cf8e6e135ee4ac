/** An id from the URL (a path segment or a query parameter): a positive whole number, else null
 * (a page says "not found" then rather than asking the server for `NaN`). */
export function idParam(raw: string | null | undefined): number | null {
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
