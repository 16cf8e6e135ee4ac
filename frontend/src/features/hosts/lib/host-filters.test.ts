import { describe, expect, it } from "vitest";
import { dayBound, queryString, toHostFilters } from "@/features/hosts/lib/host-filters";

describe("toHostFilters", () => {
  it("leaves blank fields out and trims the others", () => {
    expect(toHostFilters({ q: " ora ", group: "", variable: "tier=gold" })).toEqual({
      q: "ora",
      var: "tier=gold",
    });
    expect(toHostFilters({ q: "", group: " ", variable: "" })).toEqual({});
  });
});

describe("dayBound", () => {
  it("is the start of the day, or of the next one for an end", () => {
    const start = new Date(dayBound("2026-11-20") ?? "");
    const end = new Date(dayBound("2026-11-20", true) ?? "");
    expect(start.getDate()).toBe(20);
    expect(start.getHours()).toBe(0);
    expect(end.getTime() - start.getTime()).toBeGreaterThanOrEqual(23 * 3600_000);
    expect(end.getDate()).toBe(21);
  });

  it("refuses what is not a day", () => {
    expect(dayBound("")).toBeUndefined();
    expect(dayBound("20/11/2026")).toBeUndefined();
  });
});

describe("queryString", () => {
  it("keeps only the values given", () => {
    expect(queryString({ since: "2026-11-20T00:00:00.000Z", until: undefined, q: "" })).toBe(
      "since=2026-11-20T00%3A00%3A00.000Z",
    );
  });
});
