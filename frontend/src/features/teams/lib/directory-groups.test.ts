import { describe, expect, it } from "vitest";
import { directoryGroupsFromText } from "@/features/teams/lib/directory-groups";

describe("directoryGroupsFromText", () => {
  it("takes one group a line, trimmed, without blank lines", () => {
    expect(directoryGroupsFromText(" cn=ops,dc=x \r\n\n  \ncn=dev, dc=x\n")).toEqual([
      "cn=ops,dc=x",
      "cn=dev, dc=x",
    ]);
  });

  it("is empty for nothing typed", () => {
    expect(directoryGroupsFromText("")).toEqual([]);
    expect(directoryGroupsFromText("\n \n")).toEqual([]);
  });
});
