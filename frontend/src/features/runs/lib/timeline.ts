/** Where the time went: task results laid out per host on one time axis. */

export interface TimelineInput {
  host: string;
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
}

export interface Timeline {
  lanes: HostLane[];
  /** seconds from the first start to the last end */
  span: number;
  start: number | null;
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
    let lane = lanes.get(entry.host);
    if (!lane) {
      lane = { host: entry.host, bars: [], busy: 0 };
      lanes.set(entry.host, lane);
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
  return { lanes: [...lanes.values()], span: spanMs / 1000, start };
}

export function formatSeconds(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  if (minutes < 60) return `${minutes} min ${rest} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
