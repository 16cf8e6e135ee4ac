import { describe, expect, it } from "vitest";
import { LABEL_MAX, labelNames, labelOf } from "@/lib/labels";

describe("template labels as typed", () => {
  it("become lower-case slugs starting with a letter or digit", () => {
    expect(labelOf("  Prod ")).toBe("prod");
    expect(labelOf("DB tier/EU")).toBe("db-tier-eu");
    expect(labelOf("--.x_y")).toBe("x_y");
    expect(labelOf("prod\u202e")).toBe("prod-");
    expect(labelOf("!!")).toBe("");
    expect(labelOf("x".repeat(LABEL_MAX + 5))).toHaveLength(LABEL_MAX);
  });

  it("are kept sorted, each once, without blanks", () => {
    expect(labelNames(["web", "Prod", "prod", " ", "db"])).toEqual(["db", "prod", "web"]);
    expect(labelNames([])).toEqual([]);
  });
});
