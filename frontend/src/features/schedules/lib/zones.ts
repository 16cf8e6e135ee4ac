/**
 * Time zones for schedules: the IANA names the browser knows, and wall times in a zone (what a
 * person types as a start or end) to and from UTC instants, through Intl (the browser's own
 * zone data) and no hand-kept offset table.
 */

/** The viewer's IANA zone, e.g. Europe/Berlin; UTC when the browser does not say. */
export function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

/** Every IANA zone the browser knows, UTC first; `current` is kept even if it does not. */
export function timeZones(current?: string): string[] {
  const known =
    typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const zones = new Set(["UTC", ...known]);
  if (current) zones.add(current);
  return [...zones];
}

const fields = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(zone: string): Intl.DateTimeFormat {
  let format = fields.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    fields.set(zone, format);
  }
  return format;
}

/** The wall clock of `zone` at the instant `ms`, as epoch milliseconds of that reading in UTC. */
function wallMs(zone: string, ms: number): number {
  const parts: Record<string, number> = {};
  for (const part of zoneFormat(zone).formatToParts(ms)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/**
 * The UTC instant (ISO 8601) at which the clocks of `zone` show `wall` ("2026-03-29T02:30", the
 * value of a datetime-local input); null for text that is no such time. A time skipped by a
 * spring-forward is taken after the jump; a repeated autumn time is its first occurrence.
 */
export function zonedWallToUtc(wall: string, zone: string): string | null {
  const match = WALL.exec(wall);
  if (!match) return null;
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0] = match.slice(1).map(Number);
  const reading = Date.UTC(y, mo - 1, d, h, mi);
  const day = 86_400_000;
  try {
    // the zone's offsets a day before and after: the reading is at one of them (both in an
    // autumn repeat, where the earlier instant wins), or at neither in a spring-forward gap
    const offset = (at: number) => wallMs(zone, at) - at;
    const before = reading - offset(reading - day);
    const after = reading - offset(reading + day);
    const exact = [before, after].filter((instant) => wallMs(zone, instant) === reading);
    return new Date(exact.length ? Math.min(...exact) : before).toISOString();
  } catch {
    return null;
  }
}

/** The wall time ("2026-03-29T03:30") of `zone` at the UTC instant `iso`, for a datetime-local input. */
export function utcToZonedWall(iso: string, zone: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return "";
  try {
    return new Date(wallMs(zone, ms)).toISOString().slice(0, 16);
  } catch {
    return "";
  }
}

const WITH_OFFSET = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** How a schedule's times read: "Sun, 29 Mar 2026, 03:30", on a 24-hour clock. */
const WALL_TIME: Intl.DateTimeFormatOptions = {
  weekday: "short",
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
};

/**
 * A time the server gave with its zone's offset ("2026-03-29T03:30:00+02:00") as a person reads
 * it: "Sun, 29 Mar 2026, 03:30 (UTC+02:00)". The wall time is the server's, not recomputed, so
 * what is shown is what the scheduler uses whatever zone data the browser has.
 */
export function formatWallTime(isoWithOffset: string, locale?: string): string {
  const match = WITH_OFFSET.exec(isoWithOffset);
  if (!match) return isoWithOffset;
  const [, wall, offset] = match;
  const reading = Date.parse(`${wall}:00Z`);
  const text = new Intl.DateTimeFormat(locale, { ...WALL_TIME, timeZone: "UTC" }).format(reading);
  return `${text} (UTC${offset === "Z" ? "" : offset})`;
}

/** An instant in `zone`, e.g. "Sun, 29 Mar 2026, 03:30 CEST". */
export function formatInZone(iso: string, zone: string, locale?: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  try {
    return new Intl.DateTimeFormat(locale, {
      ...WALL_TIME,
      timeZone: zone,
      timeZoneName: "short",
    }).format(ms);
  } catch {
    return iso;
  }
}
