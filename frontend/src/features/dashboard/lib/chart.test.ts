import { describe, expect, it } from "vitest";
import { labelStride, niceMax, segments } from "@/features/dashboard/lib/chart";

const day = (counts: Record<string, number>) => ({
  day: "2026-11-24",
  counts,
  total: Object.values(counts).reduce((a, b) => a + b, 0),
});

describe("runs per day chart", () => {
  it("rounds the axis up to 1, 2 or 5 times a power of ten", () => {
    expect([0, 1, 3, 7, 10, 11, 180, 4001].map(niceMax)).toEqual([1, 1, 5, 10, 10, 20, 200, 5000]);
  });

  it("stacks outcomes first and leaves out empty statuses", () => {
    expect(segments(day({ queued: 1, successful: 2, failed: 0, error: 3 }))).toEqual([
      { status: "successful", count: 2, from: 0 },
      { status: "error", count: 3, from: 2 },
      { status: "queued", count: 1, from: 5 },
    ]);
  });

  it("thins the day labels on a narrow chart", () => {
    expect(labelStride(14, 1000)).toBe(1);
    expect(labelStride(14, 300)).toBe(2);
    expect(labelStride(90, 300)).toBe(11);
  });
});
