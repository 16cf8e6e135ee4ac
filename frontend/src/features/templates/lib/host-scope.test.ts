import { describe, expect, it } from "vitest";
import { hostEntries, hostsLabel, reachedLabel } from "@/features/templates/lib/host-scope";

describe("host scope", () => {
  it("says every host when a grant names none", () => {
    expect(hostsLabel([])).toBe("every host");
    expect(hostsLabel(null)).toBe("every host");
    expect(hostsLabel(["dev", "web*"])).toBe("dev, web*");
  });

  it("keeps the entries typed once each, trimmed", () => {
    expect(hostEntries([" dev", "dev", "", "test "])).toEqual(["dev", "test"]);
  });
});

describe("reachedLabel", () => {
  it("names the hosts reached now, how many more, and the patterns not resolved", () => {
    expect(reachedLabel(null)).toBeNull();
    expect(reachedLabel({ names: ["db1", "db2"], count: 5, unresolved: [] })).toBe(
      "db1, db2 (and 3 more)",
    );
    expect(reachedLabel({ names: ["db1"], count: 1, unresolved: ["~web.*"] })).toBe(
      "db1, and hosts matching ~web.*",
    );
    expect(reachedLabel({ names: [], count: 0, unresolved: ["~web.*"] })).toBe(
      "hosts matching ~web.*",
    );
    expect(reachedLabel({ names: [], count: 0, unresolved: [] })).toBe(
      "no host of the inventory yet",
    );
  });
});
