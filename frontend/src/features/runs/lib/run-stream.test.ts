import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type EventSourceLike,
  RunStream,
  type StreamStatus,
  acceptBatch,
} from "@/features/runs/lib/run-stream";
import type { StoredLine } from "@/features/runs/lib/line-store";

const batch = (first: number, last: number) => ({
  first,
  lines: Array.from({ length: last - first + 1 }, (_, i) => ({
    n: first + i,
    c: 1,
    t: `l${first + i}`,
  })),
});

describe("acceptBatch", () => {
  it("takes new lines in order", () => {
    expect(acceptBatch(-1, batch(0, 2))).toEqual({
      fresh: [
        { n: 0, t: "l0" },
        { n: 1, t: "l1" },
        { n: 2, t: "l2" },
      ],
      gap: null,
      last: 2,
    });
  });

  it("ignores lines already received (a resumed stream that overlaps)", () => {
    const accepted = acceptBatch(4, batch(3, 6));
    expect(accepted.fresh.map((l) => l.n)).toEqual([5, 6]);
    expect(accepted.gap).toBeNull();
    expect(acceptBatch(9, batch(3, 6))).toEqual({ fresh: [], gap: null, last: 9 });
  });

  it("reports the lines a batch skipped over", () => {
    expect(acceptBatch(4, batch(8, 9)).gap).toEqual([5, 7]);
  });
});

class FakeSource implements EventSourceLike {
  readyState = 1;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
  emit(type: string, data: unknown) {
    const event = new MessageEvent<string>(type, { data: JSON.stringify(data) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
  fail(closed: boolean) {
    this.readyState = closed ? 2 : 0;
    this.onerror?.(new Event("error"));
  }
}

describe("RunStream", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function start(after = -1) {
    const sources: FakeSource[] = [];
    const received: StoredLine[] = [];
    const gaps: [number, number][] = [];
    const ended: StreamStatus[] = [];
    const stream = new RunStream({
      url: "/api/v1/projects/1/runs/7/stream",
      after,
      backoffMs: [100],
      open: (url) => {
        const source = new FakeSource(url);
        sources.push(source);
        return source;
      },
      handlers: {
        onLines: (lines) => received.push(...lines),
        onGap: (from, to) => gaps.push([from, to]),
        onStatus: () => {},
        onEnd: (status) => ended.push(status),
      },
    });
    return { stream, sources, received, gaps, ended };
  }

  it("resumes after a dropped connection from the last line, without duplicates or losses", () => {
    const { stream, sources, received, gaps } = start();
    expect(sources[0]?.url).toBe("/api/v1/projects/1/runs/7/stream?after=-1");
    sources[0]?.emit("lines", batch(0, 4));

    // the browser gave up on this connection: we reconnect after the backoff
    sources[0]?.fail(true);
    expect(sources).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(sources[1]?.url).toBe("/api/v1/projects/1/runs/7/stream?after=4");

    sources[1]?.emit("lines", batch(3, 7)); // overlap: 3 and 4 again
    sources[1]?.emit("lines", batch(10, 11)); // 8 and 9 skipped
    expect(received.map((l) => l.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 10, 11]);
    expect(gaps).toEqual([[8, 9]]);
    expect(stream.lastLine).toBe(11);
  });

  it("lets EventSource retry by itself while it is reconnecting", () => {
    const { sources } = start(41);
    expect(sources[0]?.url).toContain("after=41");
    sources[0]?.fail(false);
    vi.advanceTimersByTime(10_000);
    expect(sources).toHaveLength(1);
  });

  it("closes at the end of the run and does not reconnect", () => {
    const { sources, ended } = start();
    sources[0]?.emit("end", { status: "successful", line_count: 5 });
    expect(ended).toEqual([{ status: "successful", line_count: 5 }]);
    expect(sources[0]?.closed).toBe(true);
    sources[0]?.fail(true);
    vi.advanceTimersByTime(10_000);
    expect(sources).toHaveLength(1);
  });
});
