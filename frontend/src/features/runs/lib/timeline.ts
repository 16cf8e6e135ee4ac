/** Where the time went: task results laid out per host on one time axis. */

/** The lane of the entry installing the repository's roles and collections (no host). */
export const REQUIREMENTS_LANE = "Requirements";

export interface TimelineInput {
  host: string;
  /** "requirements": the install before the playbook, its own lane */
  kind?: string;
  task: string;
  status: string;
  started_at: string | null;
  ended_at: string | null;
  duration: number | null;
  counter: number;
}

export interface Bar {
  task: string;
  status: string;
  /** seconds */
  duration: number;
  /** fractions of the axis, 0–1 */
  left: number;
  width: number;
  counter: number;
}

export interface HostLane {
  host: string;
  bars: Bar[];
  /** seconds spent in this host's tasks */
  busy: number;
  /** the requirements install, not a host */
  requirements: boolean;
}

export interface Timeline {
  lanes: HostLane[];
  /** seconds from the first start to the last end */
  span: number;
  start: number | null;
}

/** A host's name; the requirements install (no host) gets its own lane, never a host's. */
export function laneName(entry: Pick<TimelineInput, "host" | "kind">): string {
  return entry.kind === "requirements" ? REQUIREMENTS_LANE : entry.host;
}

function time(iso: string | null): number | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

export function buildTimeline(entries: readonly TimelineInput[]): Timeline {
  const timed = entries.flatMap((entry) => {
    const started = time(entry.started_at);
    const ended = time(entry.ended_at);
    if (started === null) return [];
    const end = ended ?? started + (entry.duration ?? 0) * 1000;
    return [{ entry, started, end: Math.max(end, started) }];
  });
  if (timed.length === 0) return { lanes: [], span: 0, start: null };
  const start = Math.min(...timed.map((t) => t.started));
  const finish = Math.max(...timed.map((t) => t.end));
  const spanMs = Math.max(1, finish - start);
  const lanes = new Map<string, HostLane>();
  for (const { entry, started, end } of timed) {
    const requirements = entry.kind === "requirements";
    // keyed apart from hosts: a host named "Requirements" keeps its own lane
    const key = requirements ? "\0requirements" : `host:${entry.host}`;
    let lane = lanes.get(key);
    if (!lane) {
      lane = { host: laneName(entry), bars: [], busy: 0, requirements };
      lanes.set(key, lane);
    }
    const duration = entry.duration ?? (end - started) / 1000;
    lane.busy += duration;
    lane.bars.push({
      task: entry.task,
      status: entry.status,
      duration,
      left: (started - start) / spanMs,
      width: (end - started) / spanMs,
      counter: entry.counter,
    });
  }
  // the install comes before the playbook: its lane first
  const ordered = [...lanes.values()].sort(
    (a, b) => Number(b.requirements) - Number(a.requirements),
  );
  return { lanes: ordered, span: spanMs / 1000, start };
}

export function formatSeconds(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  if (minutes < 60) return `${minutes} min ${rest} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
