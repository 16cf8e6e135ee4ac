import { describe, expect, it } from "vitest";
import { formatAge, streamHealth } from "@/features/audit/lib/stream-health";

const fine = { configured: true, failures: 0, backlog: 0, oldest_pending_seconds: null };

describe("streamHealth", () => {
  it("is up to date with nothing waiting, or waiting briefly", () => {
    expect(streamHealth(fine).label).toBe("up to date");
    expect(streamHealth({ ...fine, backlog: 3, oldest_pending_seconds: 2 }).label).toBe(
      "up to date",
    );
  });

  it("is behind when a record has waited over a minute", () => {
    expect(streamHealth({ ...fine, backlog: 3, oldest_pending_seconds: 61 })).toEqual({
      label: "behind",
      color: "yellow",
    });
  });

  it("is failing after a failed batch, whatever waits", () => {
    expect(streamHealth({ ...fine, failures: 2 }).color).toBe("red");
  });

  it("says when a sink is configured no more", () => {
    expect(streamHealth({ ...fine, configured: false, failures: 1 }).label).toBe("not configured");
  });
});

describe("formatAge", () => {
  it("reads in seconds, minutes or hours", () => {
    expect(formatAge(null)).toBe("—");
    expect(formatAge(42.4)).toBe("42 s");
    expect(formatAge(600)).toBe("10 min");
    expect(formatAge(7200)).toBe("2 h");
  });
});
