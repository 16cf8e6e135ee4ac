import { describe, expect, it } from "vitest";
import { healthSummary } from "./health";

describe("healthSummary", () => {
  it("says how many hosts are unreachable now", () => {
    expect(healthSummary({ unreachable_now: 2, checked: 40, hosts: 40 })).toEqual({
      text: "2 of 40 unreachable now",
      color: "red",
    });
  });

  it("says when nothing is checked or nothing failed", () => {
    expect(healthSummary(null).text).toBe("not checked");
    expect(healthSummary({ unreachable_now: 0, checked: 0, hosts: 3 }).text).toBe("not checked");
    expect(healthSummary({ unreachable_now: 0, checked: 2, hosts: 3 }).text).toBe(
      "none unreachable (1 not checked)",
    );
  });
});
