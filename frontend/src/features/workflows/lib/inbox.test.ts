import { describe, expect, it } from "vitest";
import { askedBy, badgeLabel, timeLeft, whatRunsNext } from "@/features/workflows/lib/inbox";

describe("the approvals inbox as shown", () => {
  it("counts in the navigation only what waits", () => {
    expect(badgeLabel(undefined)).toBeNull();
    expect(badgeLabel(0)).toBeNull();
    expect(badgeLabel(1)).toBe("1");
    expect(badgeLabel(99)).toBe("99");
    expect(badgeLabel(100)).toBe("99+");
  });

  it("says who asked, and through what", () => {
    const base = { launched_by: "alice", schedule_id: null, webhook_id: null };
    expect(askedBy({ ...base, launch_type: "manual" })).toBe("alice");
    expect(askedBy({ ...base, launch_type: "schedule", schedule_id: 3 })).toBe(
      "via schedule 3 (alice)",
    );
    expect(askedBy({ ...base, launch_type: "webhook", webhook_id: 2 })).toBe(
      "via webhook 2 (alice)",
    );
    expect(askedBy({ ...base, launched_by: "", launch_type: "manual" })).toBe("a deleted user");
  });

  it("says what runs once approved", () => {
    expect(whatRunsNext({ next: [] })).toBe("nothing more: the workflow ends");
    expect(
      whatRunsNext({
        next: [
          { key: "patch", kind: "template", name: "patch-db", template_id: 4 },
          { key: "live", kind: "approval", name: "go live?", template_id: null },
          { key: "gone", kind: "template", name: "", template_id: 9 },
        ],
      }),
    ).toBe("template patch-db, approval 'go live?', template #9");
  });

  it("says how long it may still wait", () => {
    const now = Date.parse("2026-11-27T10:00:00Z");
    expect(timeLeft({ deadline_at: null }, now)).toBeNull();
    expect(timeLeft({ deadline_at: "2026-11-27T10:04:10Z" }, now)).toBe("denied in 4 min 10 s");
    expect(timeLeft({ deadline_at: "2026-11-27T09:59:00Z" }, now)).toBe("past its deadline");
  });
});
