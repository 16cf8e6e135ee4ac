import { describe, expect, it } from "vitest";
import { tabsInRow } from "@/lib/tab-overflow";

describe("tabsInRow", () => {
  const widths = [100, 60, 90, 80];

  it("keeps every tab when they all fit, with no room kept for More", () => {
    expect(tabsInRow(widths, 330, 70)).toBe(4);
    expect(tabsInRow(widths, 1000, 70)).toBe(4);
  });

  it("one pixel short: the last tabs go to More, which takes its own room", () => {
    // 329 < 330: More (70) + 100 + 60 = 230, + 90 = 320 fits, + 80 does not
    expect(tabsInRow(widths, 329, 70)).toBe(3);
    // 250: More + 100 + 60 = 230 fits, + 90 does not
    expect(tabsInRow(widths, 250, 70)).toBe(2);
  });

  it("a window narrower than one tab and More: every tab is in More", () => {
    expect(tabsInRow(widths, 120, 70)).toBe(0);
  });

  it("nothing measured yet: everything in the row", () => {
    expect(tabsInRow([0, 0, 0], 0, 0)).toBe(3);
    expect(tabsInRow([], 300, 70)).toBe(0);
  });
});
