/** Runs side by side: their samples on one axis of seconds from a task they share. */

interface TaskInput {
  task: string;
  started_at: string | null;
  ended_at: string | null;
  duration: number | null;
}

/** Task names every run has, in the order of the first run. */
export function commonTasks(runs: readonly (readonly TaskInput[])[]): string[] {
  const [first] = runs;
  if (!first) return [];
  const names = [...new Set(first.map((t) => t.task))];
  return names.filter((name) => runs.every((tasks) => tasks.some((t) => t.task === name)));
}

/** When the task first started in a run (epoch ms), or null. */
export function taskStart(tasks: readonly TaskInput[], name: string): number | null {
  const starts = tasks
    .filter((t) => t.task === name && t.started_at)
    .map((t) => Date.parse(t.started_at ?? ""))
    .filter((ms) => !Number.isNaN(ms));
  return starts.length ? Math.min(...starts) : null;
}

/** Seconds a task took in a run: from its first start to its last end over every host. */
export function taskSeconds(tasks: readonly TaskInput[], name: string): number | null {
  const own = tasks.filter((t) => t.task === name && t.started_at && t.ended_at);
  if (own.length === 0) return null;
  const start = Math.min(...own.map((t) => Date.parse(t.started_at ?? "")));
  const end = Math.max(...own.map((t) => Date.parse(t.ended_at ?? "")));
  return (end - start) / 1000;
}

/** One value per time: the sum of `keys` (null when none of them was measured). */
export function summed(
  series: Record<string, readonly (number | null)[]>,
  keys: readonly string[],
  length: number,
): (number | null)[] {
  return Array.from({ length }, (_, i) => {
    const values = keys.map((k) => series[k]?.[i]).filter((v): v is number => v != null);
    return values.length ? values.reduce((a, b) => a + b, 0) : null;
  });
}

/** Several runs' (x, y) samples merged on one sorted x axis. Where a run has no sample at an x
 * of another run: `undefined` (uPlot draws its line across); a sample that was not measured
 * stays `null` (a break in the line). */
export function aligned(
  tables: readonly { x: readonly number[]; y: readonly (number | null)[] }[],
): (number | null | undefined)[][] {
  const xs = [...new Set(tables.flatMap((t) => t.x))].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const columns = tables.map((table) => {
    const column: (number | null | undefined)[] = xs.map(() => undefined);
    table.x.forEach((x, i) => {
      column[index.get(x) ?? 0] = table.y[i] ?? null;
    });
    return column;
  });
  return [xs, ...columns];
}
