import { describe, expect, it } from "vitest";
import { overridesFreeze, withFreezeReason } from "@/features/templates/lib/launch-freeze";
import { coming, frozen } from "@/features/templates/testing/make-freeze";

describe("launch freeze", () => {
  it("asks for a reason only during a freeze the caller may override, and never of a plan", () => {
    expect(overridesFreeze(frozen(true), false)).toBe(true);
    expect(overridesFreeze(frozen(false), false)).toBe(false);
    expect(overridesFreeze(frozen(true), true)).toBe(false);
    expect(overridesFreeze(coming(), false)).toBe(false);
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
