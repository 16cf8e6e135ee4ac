import { describe, expect, it } from "vitest";
import {
  aligned,
  commonTasks,
  summed,
  taskSeconds,
  taskStart,
} from "@/features/metrics/lib/compare";

const task = (name: string, start: string, end: string) => ({
  task: name,
  started_at: start,
  ended_at: end,
  duration: null,
});

describe("compare", () => {
  const first = [
    task("restart db", "2026-11-23T10:00:00Z", "2026-11-23T10:00:10Z"),
    task("warm cache", "2026-11-23T10:00:10Z", "2026-11-23T10:00:12Z"),
  ];
  const second = [
    task("warm cache", "2026-11-23T11:00:30Z", "2026-11-23T11:00:31Z"),
    task("restart db", "2026-11-23T11:00:00Z", "2026-11-23T11:00:30Z"),
    task("only here", "2026-11-23T11:00:31Z", "2026-11-23T11:00:32Z"),
  ];

  it("finds the tasks both runs have, in the first run's order", () => {
    expect(commonTasks([first, second])).toEqual(["restart db", "warm cache"]);
  });

  it("times a task in each run", () => {
    expect(taskSeconds(first, "restart db")).toBe(10);
    expect(taskSeconds(second, "restart db")).toBe(30);
    expect(taskStart(second, "warm cache")).toBe(Date.parse("2026-11-23T11:00:30Z"));
    expect(taskSeconds(first, "missing")).toBeNull();
  });

  it("adds series and keeps what no series measured empty", () => {
    expect(summed({ a: [1, null, null], b: [2, 3, null] }, ["a", "b"], 3)).toEqual([3, 3, null]);
  });

  it("merges runs on one axis: filler undefined, what was not measured null", () => {
    expect(
      aligned([
        { x: [0, 2], y: [1, 2] },
        { x: [1, 2], y: [5, null] },
      ]),
    ).toEqual([
      [0, 1, 2],
      [1, undefined, 2],
      [undefined, 5, null],
    ]);
  });
});
