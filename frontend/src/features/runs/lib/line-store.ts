/**
 * The lines of one run's output, held sparsely by line number in chunks that are fetched on
 * demand: the viewer asks for the rows it shows and only their chunks are loaded, so a
 * 1,000,000-line run never sits in memory whole. The live stream appends to the same store.
 */

export interface StoredLine {
  n: number;
  t: string;
}

/** Lines with line_no > after, at most limit of them, in order; and how many exist, if known. */
export type FetchLines = (
  after: number,
  limit: number,
) => Promise<StoredLine[] | { lines: StoredLine[]; count: number }>;

interface Chunk {
  lines: (string | undefined)[];
  filled: number;
}

export interface LineStoreOptions {
  chunkSize?: number;
  /** chunks kept in memory; the least recently wanted ones beyond this are dropped */
  maxChunks?: number;
  /** after a failed fetch, how long before a chunk is asked for again */
  retryMs?: number;
}

export class LineStore {
  readonly chunkSize: number;
  private readonly maxChunks: number;
  private readonly retryMs: number;
  private readonly fetchLines: FetchLines;
  private readonly chunks = new Map<number, Chunk>();
  private readonly loading = new Set<number>();
  private readonly failedUntil = new Map<number, number>();
  private readonly listeners = new Set<() => void>();
  private version = 0;
  private total = 0;
  private disposed = false;
  private lastError: Error | null = null;

  constructor(fetchLines: FetchLines, options: LineStoreOptions = {}) {
    this.fetchLines = fetchLines;
    this.chunkSize = options.chunkSize ?? 1000;
    this.maxChunks = options.maxChunks ?? 300;
    this.retryMs = options.retryMs ?? 2000;
  }

  /** Lines known to exist (0 … count-1), whether loaded or not. */
  get count(): number {
    return this.total;
  }

  get error(): Error | null {
    return this.lastError;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Changes whenever a line or the count changes (for useSyncExternalStore). */
  getSnapshot = (): number => this.version;

  private notify() {
    this.version++;
    for (const listener of this.listeners) listener();
  }

  get(n: number): string | undefined {
    return this.chunks.get(Math.floor(n / this.chunkSize))?.lines[n % this.chunkSize];
  }

  has(n: number): boolean {
    return this.get(n) !== undefined;
  }

  /** The server says this many lines exist (the count never shrinks). */
  setCount(count: number) {
    if (count <= this.total) return;
    this.total = count;
    this.notify();
  }

  private put(lines: readonly StoredLine[]) {
    for (const { n, t } of lines) {
      const index = Math.floor(n / this.chunkSize);
      let chunk = this.chunks.get(index);
      if (!chunk) {
        chunk = { lines: [], filled: 0 };
        this.chunks.set(index, chunk);
      }
      const slot = n % this.chunkSize;
      if (chunk.lines[slot] === undefined) chunk.filled++;
      chunk.lines[slot] = t;
      if (n >= this.total) this.total = n + 1;
    }
  }

  /** Lines from the live stream (or a gap fill); setting a line twice is harmless. */
  add(lines: readonly StoredLine[]) {
    if (lines.length === 0) return;
    this.put(lines);
    this.evict(new Set());
    this.notify();
  }

  /**
   * Load the first chunk before the count is known (the page asks for the run at the same
   * time): the first screen needs one round trip, not two.
   */
  prime() {
    if (this.disposed || this.loading.has(0) || this.chunks.has(0)) return;
    void this.load(0, 0, new Set([0]));
  }

  private firstMissing(index: number): number | null {
    const start = index * this.chunkSize;
    const end = Math.min(start + this.chunkSize, this.total);
    const chunk = this.chunks.get(index);
    if (chunk && chunk.filled >= end - start) return null;
    for (let n = start; n < end; n++) {
      if (chunk?.lines[n - start] === undefined) return n;
    }
    return null;
  }

  /**
   * Make sure lines from … to (inclusive) get loaded: fetch each chunk of the range that has
   * a missing line, once at a time. Returns at once; listeners hear when lines arrive.
   */
  ensure(from: number, to: number) {
    if (this.disposed || this.total === 0) return;
    const first = Math.max(0, Math.floor(from / this.chunkSize));
    const last = Math.floor(Math.min(to, this.total - 1) / this.chunkSize);
    const wanted = new Set<number>();
    for (let index = first; index <= last; index++) {
      wanted.add(index);
      const chunk = this.chunks.get(index);
      if (chunk) {
        // most recently wanted last, so eviction drops the ones scrolled away from long ago
        this.chunks.delete(index);
        this.chunks.set(index, chunk);
      }
      if (this.loading.has(index) || (this.failedUntil.get(index) ?? 0) > Date.now()) continue;
      const missing = this.firstMissing(index);
      if (missing !== null) void this.load(index, missing, wanted);
    }
  }

  private async load(index: number, from: number, wanted: Set<number>) {
    this.loading.add(index);
    const end = (index + 1) * this.chunkSize;
    try {
      const result = await this.fetchLines(from - 1, end - from);
      if (this.disposed) return;
      const lines = Array.isArray(result) ? result : result.lines;
      this.put(lines.filter((line) => line.n < end));
      if (!Array.isArray(result) && result.count > this.total) this.total = result.count;
      this.failedUntil.delete(index);
      this.lastError = null;
      // the server sent fewer lines than it counted: don't ask again in a tight loop
      if (this.firstMissing(index) !== null) {
        this.failedUntil.set(index, Date.now() + this.retryMs);
      }
    } catch (error) {
      if (this.disposed) return;
      this.lastError = error instanceof Error ? error : new Error(String(error));
      this.failedUntil.set(index, Date.now() + this.retryMs);
      setTimeout(() => this.notify(), this.retryMs);
    } finally {
      this.loading.delete(index);
    }
    this.evict(wanted);
    this.notify();
  }

  private evict(keep: Set<number>) {
    for (const index of this.chunks.keys()) {
      if (this.chunks.size <= this.maxChunks) return;
      if (!keep.has(index) && !this.loading.has(index)) this.chunks.delete(index);
    }
  }

  /** Lines held in memory (for tests and diagnostics). */
  get loadedLines(): number {
    let total = 0;
    for (const chunk of this.chunks.values()) total += chunk.filled;
    return total;
  }

  dispose() {
    this.disposed = true;
    this.listeners.clear();
  }
}
