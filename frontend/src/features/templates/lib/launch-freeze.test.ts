import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/client";
import { overridesFreeze, withFreezeReason } from "@/features/templates/lib/launch-freeze";

type ActiveFreezes = Schemas["ActiveFreezes"];

const window: Schemas["FreezeStanding"] = {
  window_id: 1,
  scope: "project",
  project_id: 1,
  name: "Change freeze",
  starts_at: "2026-12-20T00:00:00Z",
  ends_at: "2027-01-03T00:00:00Z",
  shown_end: "2027-01-03 00:00 UTC",
  active: true,
};
const frozen = (can_override: boolean): ActiveFreezes => ({
  active: window,
  coming: null,
  can_override,
});

describe("launch freeze", () => {
  it("asks for a reason only during a freeze the caller may override, and never of a plan", () => {
    expect(overridesFreeze(frozen(true), false)).toBe(true);
    expect(overridesFreeze(frozen(false), false)).toBe(false);
    expect(overridesFreeze(frozen(true), true)).toBe(false);
    expect(
      overridesFreeze(
        { active: null, coming: { ...window, active: false }, can_override: true },
        false,
      ),
    ).toBe(false);
    expect(overridesFreeze(undefined, false)).toBe(false);
  });

  it("sends the reason only when overriding", () => {
    const body = { template_id: 3, survey: {} };
    expect(withFreezeReason(body, true, "INC-42")).toEqual({
      ...body,
      freeze_override_reason: "INC-42",
    });
    expect(withFreezeReason(body, false, "INC-42")).toEqual(body);
  });
});
