import { describe, expect, it } from "vitest";
import {
  formatInZone,
  formatWallTime,
  timeZones,
  utcToZonedWall,
  zonedWallToUtc,
} from "@/features/schedules/lib/zones";

describe("zonedWallToUtc", () => {
  it("reads a wall time in the zone's offset of that day (winter and summer)", () => {
    expect(zonedWallToUtc("2026-01-15T02:00", "Europe/Berlin")).toBe("2026-01-15T01:00:00.000Z");
    expect(zonedWallToUtc("2026-07-15T02:00", "Europe/Berlin")).toBe("2026-07-15T00:00:00.000Z");
    expect(zonedWallToUtc("2026-07-15T02:00", "America/New_York")).toBe("2026-07-15T06:00:00.000Z");
    expect(zonedWallToUtc("2026-07-15T02:00", "UTC")).toBe("2026-07-15T02:00:00.000Z");
  });

  it("takes a time skipped by spring-forward after the jump, a repeated one at its first", () => {
    // Berlin jumps from 02:00 to 03:00 on 29 March 2026: 02:30 does not exist
    expect(zonedWallToUtc("2026-03-29T02:30", "Europe/Berlin")).toBe("2026-03-29T01:30:00.000Z");
    // 25 October 2026: 02:30 happens at 00:30 UTC (CEST) and again at 01:30 UTC (CET)
    expect(zonedWallToUtc("2026-10-25T02:30", "Europe/Berlin")).toBe("2026-10-25T00:30:00.000Z");
  });

  it("refuses what is no wall time or no zone", () => {
    expect(zonedWallToUtc("", "UTC")).toBeNull();
    expect(zonedWallToUtc("2026-01-15 02:00", "UTC")).toBeNull();
    expect(zonedWallToUtc("2026-01-15T02:00", "Mars/Olympus")).toBeNull();
  });
});

describe("utcToZonedWall", () => {
  it("is the inverse for the wall times that exist", () => {
    for (const wall of ["2026-01-15T02:00", "2026-07-15T23:45", "2026-10-25T02:30"]) {
      for (const zone of ["Europe/Berlin", "Asia/Kolkata", "America/Los_Angeles"]) {
        expect(utcToZonedWall(zonedWallToUtc(wall, zone) ?? "", zone)).toBe(wall);
      }
    }
    expect(utcToZonedWall("nonsense", "UTC")).toBe("");
  });
});

describe("formatting", () => {
  it("shows the server's wall time and offset, whatever the browser's zone", () => {
    expect(formatWallTime("2026-03-30T02:30:00+02:00", "en-GB")).toBe(
      "Mon, 30 Mar 2026, 02:30 (UTC+02:00)",
    );
    expect(formatWallTime("2026-03-29T20:30:00-04:00", "en-GB")).toBe(
      "Sun, 29 Mar 2026, 20:30 (UTC-04:00)",
    );
    expect(formatWallTime("2026-03-30T00:30:00Z", "en-GB")).toBe("Mon, 30 Mar 2026, 00:30 (UTC)");
    expect(formatWallTime("garbage")).toBe("garbage");
  });

  it("shows an instant in a named zone", () => {
    const text = formatInZone("2026-03-30T00:30:00Z", "Asia/Kolkata", "en-GB");
    expect(text).toContain("Mon, 30 Mar 2026");
    expect(text).toContain("06:00");
  });

  it("lists UTC first and keeps a zone the browser does not know", () => {
    const zones = timeZones("Etc/Unknown");
    expect(zones[0]).toBe("UTC");
    expect(zones).toContain("Europe/Berlin");
    expect(zones).toContain("Etc/Unknown");
    expect(new Set(zones).size).toBe(zones.length);
  });
});
