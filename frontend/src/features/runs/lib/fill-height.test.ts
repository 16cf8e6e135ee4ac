import { describe, expect, it } from "vitest";
import { fillHeight } from "@/features/runs/lib/fill-height";

describe("fillHeight", () => {
  it("ends the box just above the bottom of the viewport", () => {
    // 1280x720: a box starting 330 px down ends at 704
    expect(fillHeight(330, 720)).toBe(374);
    expect(330 + fillHeight(330, 720)).toBe(720 - 16);
  });

  it("keeps a usable height when the box starts low (then the page scrolls)", () => {
    expect(fillHeight(700, 720)).toBe(200); // ten lines: a phone shows them under a running run's progress
    expect(fillHeight(700, 720, { min: 160 })).toBe(160);
  });

  it("does not grow past the maximum on a tall screen", () => {
    expect(fillHeight(300, 4000)).toBe(2000);
  });
});
