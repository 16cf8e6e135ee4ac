import { describe, expect, it, vi } from "vitest";
import { LineStore, type StoredLine } from "@/features/runs/lib/line-store";

/** A server of `total` lines, recording every request. */
function server(total: number) {
  const requests: [number, number][] = [];
  const fetchLines = vi.fn(async (after: number, limit: number): Promise<StoredLine[]> => {
    requests.push([after, limit]);
    const lines: StoredLine[] = [];
    for (let n = after + 1; n < Math.min(total, after + 1 + limit); n++) {
      lines.push({ n, t: `line ${n}` });
    }
    return lines;
  });
  return { fetchLines, requests };
}

const settle = () => new Promise((done) => setTimeout(done, 0));

describe("LineStore", () => {
  it("fetches only the chunks the viewer asks for", async () => {
    const { fetchLines, requests } = server(1_000_000);
    const store = new LineStore(fetchLines, { chunkSize: 1000 });
    store.setCount(1_000_000);
    store.ensure(999_950, 999_999);
    store.ensure(999_960, 999_999); // already on its way: not asked twice
    await settle();
    expect(requests).toEqual([[998_999, 1000]]);
    expect(store.get(999_999)).toBe("line 999999");
    expect(store.get(0)).toBeUndefined();
    expect(store.loadedLines).toBe(1000);
  });

  it("loads a range across a chunk boundary as two chunks, once", async () => {
    const { fetchLines, requests } = server(5000);
    const store = new LineStore(fetchLines, { chunkSize: 1000 });
    store.setCount(5000);
    store.ensure(990, 1010);
    await settle();
    store.ensure(990, 1010);
    await settle();
    expect(requests).toEqual([
      [-1, 1000],
      [999, 1000],
    ]);
  });

  it("fills only what is missing in a chunk the stream already began", async () => {
    const { fetchLines, requests } = server(2600);
    const store = new LineStore(fetchLines, { chunkSize: 1000 });
    store.add([
      { n: 2500, t: "live 2500" },
      { n: 2501, t: "live 2501" },
    ]);
    expect(store.count).toBe(2502);
    store.ensure(2480, 2501);
    await settle();
    expect(requests).toEqual([[1999, 1000]]);
    expect(store.get(2000)).toBe("line 2000");
    expect(store.get(2501)).toBe("line 2501");
  });

  it("loads the first chunk before the count is known, and learns the count from it", async () => {
    const requests: [number, number][] = [];
    const store = new LineStore(async (after, limit) => {
      requests.push([after, limit]);
      return { lines: [{ n: 0, t: "PLAY [all]" }], count: 200_000 };
    });
    store.prime();
    store.prime();
    await settle();
    expect(requests).toEqual([[-1, 1000]]);
    expect(store.count).toBe(200_000);
    expect(store.get(0)).toBe("PLAY [all]");
  });

  it("tells its listeners when lines arrive", async () => {
    const { fetchLines } = server(10);
    const store = new LineStore(fetchLines);
    const listener = vi.fn();
    store.subscribe(listener);
    store.setCount(10);
    const before = store.getSnapshot();
    store.ensure(0, 9);
    await settle();
    expect(listener).toHaveBeenCalled();
    expect(store.getSnapshot()).toBeGreaterThan(before);
  });

  it("drops the chunks scrolled away from long ago", async () => {
    const { fetchLines } = server(100_000);
    const store = new LineStore(fetchLines, { chunkSize: 100, maxChunks: 3 });
    store.setCount(100_000);
    for (const at of [0, 500, 1000, 1500, 2000]) {
      store.ensure(at, at + 10);
      await settle();
    }
    expect(store.loadedLines).toBe(300);
    expect(store.get(0)).toBeUndefined();
    expect(store.get(2000)).toBe("line 2000");
  });

  it("waits before asking again after a failure", async () => {
    const fetchLines = vi.fn(async (): Promise<StoredLine[]> => {
      throw new Error("offline");
    });
    const store = new LineStore(fetchLines, { retryMs: 60_000 });
    store.setCount(10);
    store.ensure(0, 9);
    await settle();
    store.ensure(0, 9);
    await settle();
    expect(fetchLines).toHaveBeenCalledTimes(1);
    expect(store.error?.message).toBe("offline");
    store.dispose();
  });
});
