/**
 * The live output of a run over Server-Sent Events, resumed after a dropped connection without
 * duplicating or losing a line. The server's `lines` event carries `{first, lines: [{n, c, t}]}`
 * and `id: <last line_no>`, `status` carries `{status, line_count}`, and `end` closes the stream.
 * Asked with `events_after`, it also sends `events` (`{events: ProgressEvent[]}`, the run's
 * progress), resumed after the last event counter received.
 */
import type { StoredLine } from "@/features/runs/lib/line-store";
import type { ProgressEvent } from "@/features/runs/lib/progress";

export interface LinesBatch {
  first: number;
  lines: { n: number; c: number; t: string }[];
}

export interface StreamStatus {
  status: string;
  line_count: number;
  /** when the console flags a host that has been on one task that long */
  host_quiet_seconds?: number;
}

export interface Accepted {
  /** lines not seen before, in order */
  fresh: StoredLine[];
  /** line numbers (inclusive) the stream skipped over; fetch them with /lines */
  gap: [number, number] | null;
  last: number;
}

/** Take a batch given the last line number already received (-1 for none). */
export function acceptBatch(last: number, batch: LinesBatch): Accepted {
  const fresh: StoredLine[] = [];
  let next = last;
  for (const line of batch.lines) {
    if (line.n <= next) continue;
    fresh.push({ n: line.n, t: line.t });
    next = line.n;
  }
  const start = fresh[0]?.n ?? null;
  const gap: [number, number] | null =
    start !== null && start > last + 1 ? [last + 1, start - 1] : null;
  return { fresh, gap, last: next };
}

/** The part of EventSource the stream uses, so tests can drive it. */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
  onerror: ((event: Event) => void) | null;
}

export type OpenEventSource = (url: string) => EventSourceLike;

const CLOSED = 2;

export interface RunStreamHandlers {
  onLines: (lines: StoredLine[]) => void;
  onGap: (from: number, to: number) => void;
  onStatus: (status: StreamStatus) => void;
  onEnd: (status: StreamStatus) => void;
  /** progress events (only when the stream was opened with `eventsAfter`) */
  onEvents?: (events: ProgressEvent[]) => void;
  /** the connection dropped; true while a reconnect is pending */
  onConnection?: (connected: boolean) => void;
}

export interface RunStreamOptions {
  /** the stream URL without the query (…/runs/{id}/stream) */
  url: string;
  /** the last line already known (-1: from the start) */
  after: number;
  /** also the run's progress events after this counter (-1: from the start) */
  eventsAfter?: number;
  handlers: RunStreamHandlers;
  open?: OpenEventSource;
  /** delays before manual reconnects, the last one repeating */
  backoffMs?: readonly number[];
}

export class RunStream {
  private last: number;
  private lastEvent: number | undefined;
  private source: EventSourceLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempts = 0;
  private stopped = false;
  private readonly options: RunStreamOptions;
  private readonly open: OpenEventSource;

  constructor(options: RunStreamOptions) {
    this.options = options;
    this.last = options.after;
    this.lastEvent = options.eventsAfter;
    this.open = options.open ?? ((url) => new EventSource(url, { withCredentials: true }));
    this.connect();
  }

  /** The last line number received. */
  get lastLine(): number {
    return this.last;
  }

  private connect() {
    const { url, handlers } = this.options;
    const events = this.lastEvent === undefined ? "" : `&events_after=${this.lastEvent}`;
    const source = this.open(`${url}?after=${this.last}${events}`);
    this.source = source;
    source.addEventListener("lines", (event) => {
      this.attempts = 0;
      handlers.onConnection?.(true);
      const accepted = acceptBatch(this.last, JSON.parse(event.data) as LinesBatch);
      this.last = accepted.last;
      if (accepted.gap) handlers.onGap(accepted.gap[0], accepted.gap[1]);
      if (accepted.fresh.length > 0) handlers.onLines(accepted.fresh);
    });
    source.addEventListener("events", (event) => {
      const { events } = JSON.parse(event.data) as { events: ProgressEvent[] };
      const last = events.at(-1)?.counter;
      if (last !== undefined && this.lastEvent !== undefined && last > this.lastEvent) {
        this.lastEvent = last;
      }
      handlers.onEvents?.(events);
    });
    source.addEventListener("status", (event) => {
      this.attempts = 0;
      handlers.onConnection?.(true);
      handlers.onStatus(JSON.parse(event.data) as StreamStatus);
    });
    source.addEventListener("end", (event) => {
      this.close();
      handlers.onEnd(JSON.parse(event.data) as StreamStatus);
    });
    source.onerror = () => {
      if (this.stopped) return;
      handlers.onConnection?.(false);
      // EventSource retries by itself (sending Last-Event-ID) unless it gave up: then we do,
      // from the last line we really received
      if (source.readyState !== CLOSED) return;
      source.close();
      this.reconnectLater();
    };
  }

  private reconnectLater() {
    const backoff = this.options.backoffMs ?? [500, 1000, 2000, 5000];
    const delay = backoff[Math.min(this.attempts, backoff.length - 1)] ?? 1000;
    this.attempts++;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.stopped) this.connect();
    }, delay);
  }

  /** Drop the connection and open a new one from the last line received. */
  reconnect() {
    if (this.stopped) return;
    this.source?.close();
    if (this.timer) clearTimeout(this.timer);
    this.connect();
  }

  close() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.source?.close();
    this.source = null;
  }
}
