import { describe, expect, it } from "vitest";
import { plural } from "@/lib/format";

describe("plural", () => {
  it("counts one thing in the singular and any other number in the plural", () => {
    expect(plural(1, "matching line")).toBe("1 matching line");
    expect(plural(0, "matching line")).toBe("0 matching lines");
    expect(plural(2, "matching line")).toBe("2 matching lines");
    expect(plural(1000, "line")).toBe(`${(1000).toLocaleString()} lines`);
  });

  it("takes an irregular plural", () => {
    expect(plural(1, "match", "matches")).toBe("1 match");
    expect(plural(3, "match", "matches")).toBe("3 matches");
  });
});
