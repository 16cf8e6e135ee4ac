import { describe, expect, it } from "vitest";
import { computeWindow, scrollTopFor } from "@/features/runs/lib/log-window";

const base = { rowHeight: 20, viewportHeight: 400, overscan: 5 };

describe("computeWindow", () => {
  it("renders nothing for an empty log", () => {
    expect(computeWindow({ ...base, count: 0, scrollTop: 0 })).toMatchObject({
      height: 0,
      first: 0,
      last: -1,
    });
  });

  it("renders only the visible rows and the overscan", () => {
    const window = computeWindow({ ...base, count: 1000, scrollTop: 2000 });
    expect(window).toEqual({ height: 20000, first: 95, last: 124, top: 1900, scale: 1 });
  });

  it("clamps at both ends", () => {
    expect(computeWindow({ ...base, count: 1000, scrollTop: -50 })).toMatchObject({
      first: 0,
      last: 24,
    });
    const end = computeWindow({ ...base, count: 1000, scrollTop: 1e9 });
    expect(end.last).toBe(999);
    expect(end.first).toBe(975);
  });

  it("scales the scrollbar of a million lines and still reaches both ends", () => {
    const input = { ...base, count: 1_000_000, maxHeight: 1_000_000 };
    const top = computeWindow({ ...input, scrollTop: 0 });
    expect(top.height).toBe(1_000_000);
    expect(top.scale).toBeGreaterThan(19);
    expect(top.first).toBe(0);

    const bottom = computeWindow({ ...input, scrollTop: 1_000_000 - 400 });
    expect(bottom.last).toBe(999_999);
    // the last row's bottom edge sits on the viewport's bottom edge
    const lastRowTop = bottom.top + (bottom.last - bottom.first) * 20;
    expect(lastRowTop + 20).toBeCloseTo(1_000_000, 5);
    // and a window never holds more than the viewport plus overscan
    expect(bottom.last - bottom.first).toBeLessThanOrEqual(20 + 5);
  });

  it("finds the scrollTop that shows a given row, scaled or not", () => {
    for (const maxHeight of [1e9, 1_000_000]) {
      const input = { ...base, count: 1_000_000, maxHeight };
      const scrollTop = scrollTopFor(654_321, input);
      const window = computeWindow({ ...input, scrollTop, overscan: 0 });
      expect(window.first).toBeLessThanOrEqual(654_321);
      expect(window.last).toBeGreaterThanOrEqual(654_321);
      // centred: about half a viewport of rows above it
      expect(654_321 - window.first).toBeGreaterThan(8);
      expect(654_321 - window.first).toBeLessThan(12);
    }
  });
});
