import { describe, expect, it } from "vitest";
import { durationColumns, formatRate } from "@/features/templates/lib/template-stats";

describe("template stats", () => {
  it("splits durations by status, one point per run", () => {
    const { statuses, data } = durationColumns([
      { status: "successful", seconds: 10 },
      { status: "failed", seconds: 3 },
      { status: "running", seconds: null },
      { status: "successful", seconds: 12 },
    ]);
    expect(statuses).toEqual(["successful", "failed"]);
    expect(data).toEqual([
      [0, 1, 2, 3],
      [10, 3, null, 12],
      [10, null, null, 12],
      [null, 3, null, null],
    ]);
  });
  it("reads rates as percentages", () => {
    expect(formatRate(1)).toBe("100 %");
    expect(formatRate(0.9234)).toBe("92.3 %");
    expect(formatRate(0)).toBe("0 %");
    expect(formatRate(null)).toBe("—");
  });
});
