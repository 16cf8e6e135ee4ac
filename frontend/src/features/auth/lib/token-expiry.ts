/** When a new API token stops working: a preset, or the end of a day the reader picks. */
export type ExpiryChoice = "never" | "30" | "90" | "365" | "date";

export const EXPIRY_CHOICES: { value: ExpiryChoice; label: string }[] = [
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In a year" },
  { value: "never", label: "Never" },
  { value: "date", label: "On a date…" },
];

const DAY_MS = 86_400_000;

/**
 * The API's `expires_at` (an ISO 8601 instant, or null for never) for a choice made at `now`;
 * `date` is the `<input type="date">` value (YYYY-MM-DD): the token works to the end of that
 * day, in the reader's time zone. An unreadable date gives undefined (the form asks for one).
 */
export function expiresAt(
  choice: ExpiryChoice,
  date: string,
  now: number,
): string | null | undefined {
  if (choice === "never") return null;
  if (choice === "date") {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
    const end = new Date(`${date}T23:59:59`);
    return Number.isNaN(end.getTime()) ? undefined : end.toISOString();
  }
  return new Date(now + Number(choice) * DAY_MS).toISOString();
}

export type TokenState = "active" | "revoked" | "expired";

export function tokenState(
  token: { revoked_at: string | null; expires_at: string | null },
  now: number,
): TokenState {
  if (token.revoked_at) return "revoked";
  if (token.expires_at && Date.parse(token.expires_at) <= now) return "expired";
  return "active";
}
