import { describe, expect, it } from "vitest";
import { moreLabel, taskTotal } from "@/features/plans/lib/paging";

describe("plan paging", () => {
  it("counts the tasks that change and the unknown ones", () => {
    expect(taskTotal({ task_count: 48, unknown_count: 2 })).toBe(50);
  });

  it("says what the next page brings and what is left, and nothing once all are shown", () => {
    expect(moreLabel(50, 120, 50, "task")).toBe("Show 50 more tasks (70 left)");
    expect(moreLabel(100, 120, 50, "task")).toBe("Show 20 more tasks (20 left)");
    expect(moreLabel(0, 1, 50, "host result")).toBe("Show 1 more host result (1 left)");
    expect(moreLabel(1000, 2500, 50, "task")).toBe("Show 50 more tasks (1,500 left)");
    expect(moreLabel(120, 120, 50, "task")).toBeNull();
  });
});
