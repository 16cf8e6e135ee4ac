import { describe, expect, it } from "vitest";
import { buildTimeline, formatSeconds } from "@/features/runs/lib/timeline";

const at = (seconds: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, seconds)).toISOString();

describe("buildTimeline", () => {
  it("lays each host's tasks on one axis, proportional to their durations", () => {
    const timeline = buildTimeline([
      {
        host: "db1",
        task: "a",
        status: "ok",
        started_at: at(0),
        ended_at: at(2),
        duration: 2,
        counter: 1,
      },
      {
        host: "db2",
        task: "a",
        status: "ok",
        started_at: at(0),
        ended_at: at(1),
        duration: 1,
        counter: 2,
      },
      {
        host: "db1",
        task: "b",
        status: "failed",
        started_at: at(2),
        ended_at: at(10),
        duration: 8,
        counter: 3,
      },
      {
        host: "db2",
        task: "skipped",
        status: "skipped",
        started_at: null,
        ended_at: null,
        duration: null,
        counter: 4,
      },
    ]);
    expect(timeline.span).toBe(10);
    expect(timeline.lanes.map((lane) => [lane.host, lane.busy])).toEqual([
      ["db1", 10],
      ["db2", 1],
    ]);
    const slow = timeline.lanes[0]?.bars[1];
    expect(slow).toMatchObject({ task: "b", left: 0.2, width: 0.8, status: "failed" });
  });

  it("puts the requirements install (no host) in its own first lane, apart from a host of that name", () => {
    const entry = (host: string, kind: string, start: number, counter: number) => ({
      host,
      kind,
      task: kind === "requirements" ? "Install requirements" : "t",
      status: "ok",
      started_at: at(start),
      ended_at: at(start + 2),
      duration: 2,
      counter,
    });
    const timeline = buildTimeline([
      entry("Requirements", "task", 4, 2),
      entry("", "requirements", 0, 1),
      entry("web1", "task", 2, 3),
    ]);
    expect(timeline.lanes.map((lane) => [lane.host, lane.requirements])).toEqual([
      ["Requirements", true],
      ["Requirements", false],
      ["web1", false],
    ]);
    expect(timeline.lanes[0]?.bars).toMatchObject([{ task: "Install requirements", left: 0 }]);
  });

  it("is empty without timed results", () => {
    expect(buildTimeline([])).toEqual({ lanes: [], span: 0, start: null });
  });
});

describe("formatSeconds", () => {
  it("picks a readable unit", () => {
    expect(formatSeconds(0.0421)).toBe("42 ms");
    expect(formatSeconds(3.456)).toBe("3.46 s");
    expect(formatSeconds(75)).toBe("1 min 15 s");
    expect(formatSeconds(7260)).toBe("2 h 1 min");
  });
});
