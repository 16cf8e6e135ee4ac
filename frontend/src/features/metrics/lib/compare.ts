/** The compare page's arithmetic: which runs were asked for, how tasks sort, how deltas read. */
import { RUN_COLORS } from "@/features/metrics/lib/charts";

/** The color of the i-th compared run (its cards, columns, lanes). */
export const runColor = (index: number): string => RUN_COLORS[index % RUN_COLORS.length] ?? "gray";

export const MIN_RUNS = 2;
export const MAX_RUNS = 4;

export interface AskedRuns {
  ids: number[];
  /** why these cannot be compared (null: they can) */
  problem: string | null;
}

/** "12, 15 18" -> [12, 15, 18]; fewer than 2 or more than 4 distinct ids is a problem. */
export function askedRuns(text: string): AskedRuns {
  const ids = [
    ...new Set(
      text
        .split(/[\s,]+/)
        .filter(Boolean)
        .map(Number)
        .filter((n) => Number.isSafeInteger(n) && n > 0),
    ),
  ];
  if (ids.length < MIN_RUNS) {
    return { ids, problem: "Pick at least two runs to compare (tick them in the runs list)." };
  }
  if (ids.length > MAX_RUNS) {
    return { ids, problem: `At most ${MAX_RUNS} runs can be compared; ${ids.length} were picked.` };
  }
  return { ids, problem: null };
}

interface Cell {
  seconds: number | null;
  start: number | null;
  end: number | null;
}

export interface TaskInput {
  play: string;
  role: string;
  task: string;
  occurrence: number;
  kind: string;
  cells: (Cell | null)[];
  delta_seconds: (number | null)[];
}

/** One task's identity over the runs (play, role, name, occurrence). */
export function taskKey(t: Pick<TaskInput, "play" | "role" | "task" | "occurrence" | "kind">) {
  return [t.kind, t.play, t.role, t.task, t.occurrence].join("\u0000");
}

/** How much slower than the baseline the task got in its worst run (seconds): a task the
 * baseline did not run counts by its own seconds; missing everywhere else: -Infinity. */
export function regression(t: TaskInput): number {
  let worst = -Infinity;
  t.cells.forEach((cell, i) => {
    if (i === 0 || !cell || cell.seconds === null) return;
    const delta = t.delta_seconds[i];
    const value = delta ?? (t.cells[0] ? -Infinity : cell.seconds);
    worst = Math.max(worst, value);
  });
  return worst;
}

/** Biggest regressions first (ties in playbook order), or the playbook's order. */
export function sortedTasks<T extends TaskInput>(
  tasks: readonly T[],
  order: "regressions" | "playbook",
): T[] {
  if (order === "playbook") return [...tasks];
  return tasks
    .map((task, index) => ({ task, index, score: regression(task) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ task }) => task);
}

/** 1.234 -> "1.2 s"; 75 -> "1 min 15 s". */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "—";
  if (Math.abs(seconds) < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(Math.abs(seconds));
  const sign = seconds < 0 ? "-" : "";
  return `${sign}${Math.floor(whole / 60)} min ${whole % 60} s`;
}

/** "+2.1 s (+150 %)", "-0.3 s (-12 %)", "±0.0 s". */
export function formatDelta(seconds: number | null, percent: number | null): string {
  if (seconds === null) return "";
  const sign = seconds > 0.05 ? "+" : seconds < -0.05 ? "-" : "±";
  const abs = `${sign}${formatSeconds(Math.abs(seconds))}`;
  if (percent === null) return abs;
  const pct = `${percent > 0 ? "+" : ""}${percent.toFixed(Math.abs(percent) < 10 ? 1 : 0)} %`;
  return `${abs} (${pct})`;
}

/** Color of a delta: slower is red, faster green, within `noise` seconds neither. */
export function deltaColor(seconds: number | null, noise = 0.5): string | undefined {
  if (seconds === null || Math.abs(seconds) < noise) return "dimmed";
  return seconds > 0 ? "red" : "green";
}

/** The shared time axis: the longest of the runs (seconds), never 0. */
export function axisSeconds(
  durations: readonly (number | null)[],
  tasks: readonly TaskInput[],
): number {
  const ends = tasks.flatMap((t) => t.cells.map((c) => c?.end ?? 0));
  return Math.max(1, ...durations.map((d) => d ?? 0), ...ends);
}

/** Ticks for an axis of `span` seconds: 4–8 round steps. */
export function ticks(span: number): number[] {
  const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];
  const step = steps.find((s) => span / s <= 8) ?? Math.ceil(span / 8);
  const result: number[] = [];
  for (let t = 0; t <= span; t += step) result.push(t);
  return result;
}
