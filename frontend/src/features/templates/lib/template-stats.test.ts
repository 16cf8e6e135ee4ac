import { describe, expect, it } from "vitest";
import { durationColumns, rateText } from "@/features/templates/lib/template-stats";
import { formatRate } from "@/lib/format";

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
  it("says what a rate is of: canceled runs are left out of it", () => {
    const rate = { finished: 7, judged: 5, successful: 3, rate: 0.6, by_status: {} };
    expect(rateText(rate)).toBe("3 of 5 ended runs succeeded (2 canceled left out)");
    expect(rateText({ ...rate, finished: 5 })).toBe("3 of 5 ended runs succeeded");
    expect(rateText({ ...rate, finished: 2, judged: 0, successful: 0, rate: null })).toBe(
      "only canceled runs",
    );
    expect(rateText({ ...rate, finished: 0, judged: 0, successful: 0, rate: null })).toBe(
      "no ended run",
    );
  });
});
