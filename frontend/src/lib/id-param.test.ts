import { describe, expect, it } from "vitest";
import { idParam } from "@/lib/id-param";

describe("idParam", () => {
  it("takes a positive whole number", () => {
    expect(idParam("1")).toBe(1);
    expect(idParam("4711")).toBe(4711);
  });

  it("refuses what is not an id", () => {
    for (const raw of [
      undefined,
      null,
      "",
      "0",
      "-3",
      "1.5",
      "abc",
      "new",
      "1e400",
      "9007199254740993",
    ]) {
      expect(idParam(raw)).toBeNull();
    }
  });
});
