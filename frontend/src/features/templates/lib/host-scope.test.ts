import { describe, expect, it } from "vitest";
import { hostEntries, hostsLabel } from "@/features/templates/lib/host-scope";

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
