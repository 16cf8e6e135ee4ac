import { describe, expect, it } from "vitest";
import { CHARTS } from "@/features/metrics/lib/charts";
import {
  measureValues,
  measures,
  overlay,
  overlaySpec,
  runLegend,
} from "@/features/metrics/lib/overlay";

describe("overlay", () => {
  it("puts runs sampled at their own moments on one axis, each valued at its own times", () => {
    const result = overlay([
      { times: [0, 2000, 4000], values: [10, 20, 30] },
      { times: [1000, 2000, 5000], values: [1, 2, 3] },
    ]);
    expect(result.times).toEqual([0, 1000, 2000, 4000, 5000]);
    // undefined: no sample of that run at that time (its line goes on); never a zero
    expect(result.values).toEqual([
      [10, undefined, 20, 30, undefined],
      [undefined, 1, 2, undefined, 3],
    ]);
  });

  it("keeps a missing sample as a break, and a run without the series empty", () => {
    const result = overlay([
      { times: [0, 1000, 2000], values: [5, null, 7] },
      { times: [500, 1500], values: undefined },
    ]);
    expect(result.times).toEqual([0, 1000, 2000]);
    expect(result.values).toEqual([
      [5, null, 7],
      [undefined, undefined, undefined],
    ]);
  });

  it("handles times before a task the runs are aligned by (negative) and no runs", () => {
    expect(overlay([{ times: [-3000, 0], values: [1, 2] }]).times).toEqual([-3000, 0]);
    expect(overlay([])).toEqual({ times: [], values: [] });
  });
});

describe("overlaySpec", () => {
  const cpu = CHARTS.find((chart) => chart.id === "cpu");
  const memory = CHARTS.find((chart) => chart.id === "memory");
  if (!cpu || !memory) throw new Error("no CPU or memory chart");

  it("draws one line per run, named by its number and label, in the runs' colors", () => {
    const runs = [{ id: 12, label: "TDE off" }, { id: 15, label: "TDE on" }, { id: 18 }];
    const [user] = cpu.series;
    if (!user) throw new Error("no CPU series");
    const spec = overlaySpec(cpu, user, runs);
    expect(spec.title).toBe("CPU: user");
    expect(spec.unit).toBe("%");
    expect(spec.series.map((s) => [s.key, s.label])).toEqual([
      ["run-12", "#12 baseline · TDE off"],
      ["run-15", "#15 · TDE on"],
      ["run-18", "#18"],
    ]);
    expect(new Set(spec.series.map((s) => s.color)).size).toBe(3);
  });

  it("offers the measures of a metric, not its reference lines", () => {
    expect(measures(memory).map((s) => s.key)).toEqual(["mem.used"]);
    expect(measures(cpu)).toHaveLength(3);
    expect(runLegend({ id: 3, label: "" }, 1)).toBe("#3");
  });
});

describe("measureValues", () => {
  const memory = CHARTS.find((c) => c.id === "memory");
  const cpu = CHARTS.find((c) => c.id === "cpu");

  it("gives a share as its percentage of the whole, as the run's own chart draws it", () => {
    const used = memory?.series[0];
    if (!used) throw new Error("the memory chart has a used series");
    const series = { "mem.used": [4, 8, null, 2], "mem.total": [16, 16, 16, 0] };
    expect(measureValues(series, used)).toEqual([25, 50, null, null]);
  });

  it("gives other measures as they are, and nothing for a run without the series", () => {
    const user = cpu?.series[0];
    if (!user) throw new Error("the cpu chart has a series");
    expect(measureValues({ [user.key]: [1, null, 3] }, user)).toEqual([1, null, 3]);
    expect(measureValues({}, user)).toBeUndefined();
    expect(measureValues(undefined, user)).toBeUndefined();
  });
});
