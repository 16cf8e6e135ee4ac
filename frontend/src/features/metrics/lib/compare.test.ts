import { describe, expect, it } from "vitest";
import {
  askedRuns,
  axisSeconds,
  formatDelta,
  regression,
  sortedTasks,
  taskKey,
  ticks,
  type TaskInput,
} from "@/features/metrics/lib/compare";

const cell = (seconds: number, start = 0) => ({ seconds, start, end: start + seconds });
const task = (name: string, cells: TaskInput["cells"], occurrence = 1): TaskInput => {
  const base = cells[0]?.seconds ?? null;
  return {
    play: "p",
    role: "",
    task: name,
    occurrence,
    kind: "task",
    cells,
    delta_seconds: cells.map((c) =>
      base === null || !c || c.seconds === null ? null : c.seconds - base,
    ),
  };
};

describe("askedRuns", () => {
  it("keeps distinct positive ids in order", () => {
    expect(askedRuns("12, 15 12,x,-3, 18")).toEqual({ ids: [12, 15, 18], problem: null });
  });
  it("refuses fewer than two and more than four", () => {
    expect(askedRuns("7").problem).toMatch(/at least two/);
    expect(askedRuns("").ids).toEqual([]);
    expect(askedRuns("1,2,3,4,5").problem).toBe("At most 4 runs can be compared; 5 were picked.");
  });
});

describe("sortedTasks", () => {
  const fast = task("fast", [cell(1), cell(1.2)]);
  const slower = task("slower", [cell(1), cell(6)]);
  const faster = task("faster", [cell(5), cell(1)]);
  const gone = task("gone", [cell(1), null]);
  const added = task("added", [null, cell(3)]);
  const tasks = [fast, slower, faster, gone, added];

  it("puts the biggest regression first; a task new in a later run counts by its time", () => {
    expect(sortedTasks(tasks, "regressions").map((t) => t.task)).toEqual([
      "slower",
      "added",
      "fast",
      "faster",
      "gone",
    ]);
    expect(regression(gone)).toBe(-Infinity);
  });
  it("keeps the playbook's order when asked", () => {
    expect(sortedTasks(tasks, "playbook")).toEqual(tasks);
  });
  it("takes the worst of several later runs", () => {
    const mixed = task("mixed", [cell(2), cell(1), cell(4)]);
    expect(regression(mixed)).toBe(2);
  });
  it("tells repeated task names apart by occurrence", () => {
    expect(taskKey(task("step", [], 1))).not.toBe(taskKey(task("step", [], 2)));
  });
});

describe("formatting", () => {
  it("signs deltas and percentages", () => {
    expect(formatDelta(2.14, 150)).toBe("+2.1 s (+150 %)");
    expect(formatDelta(-0.3, -12.5)).toBe("-0.3 s (-13 %)");
    expect(formatDelta(0, 0)).toBe("±0.0 s (0.0 %)");
    expect(formatDelta(90, null)).toBe("+1 min 30 s");
    expect(formatDelta(null, null)).toBe("");
  });
  it("scales the shared axis to the longest run", () => {
    expect(axisSeconds([10, 42.5, null], [task("t", [cell(3, 50)])])).toBe(53);
    expect(axisSeconds([null], [])).toBe(1);
    expect(ticks(53)).toEqual([0, 10, 20, 30, 40, 50]);
    expect(ticks(7)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});
