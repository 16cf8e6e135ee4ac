import { describe, expect, it } from "vitest";
import { recoveryCodesFilename, recoveryCodesText } from "@/features/auth/lib/recovery-codes";

describe("recoveryCodesText", () => {
  it("holds every code on its own line, under whose and where they are", () => {
    const codes = ["aaaa-1111", "bbbb-2222", "cccc-3333"];
    const lines = recoveryCodesText(codes, "ada", "steward.example:8080").split("\n");
    expect(lines[0]).toBe("Steward recovery codes for ada at steward.example:8080");
    for (const code of codes) expect(lines).toContain(code);
    expect(lines.slice(3, 6)).toEqual(codes);
  });
});

describe("recoveryCodesFilename", () => {
  it("names the user and the server with characters every disk takes", () => {
    expect(recoveryCodesFilename("ada", "steward.example:8080")).toBe(
      "steward-recovery-codes-ada-steward.example-8080.txt",
    );
    expect(recoveryCodesFilename("a/b\\c", "[::1]:80")).toBe(
      "steward-recovery-codes-a-b-c-1-80.txt",
    );
    expect(recoveryCodesFilename("", "")).toBe("steward-recovery-codes-user-server.txt");
  });
});
