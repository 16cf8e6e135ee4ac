import { describe, expect, it } from "vitest";
import { launchedHow, runDuration, runSeconds } from "@/features/runs/lib/run-facts";

describe("launchedHow", () => {
  it("names the schedule or webhook that launched a run", () => {
    expect(launchedHow({ launch_type: "schedule", schedule_id: 3, webhook_id: null })).toBe(
      "schedule 3",
    );
    expect(launchedHow({ launch_type: "webhook", schedule_id: null, webhook_id: 5 })).toBe(
      "webhook 5",
    );
  });

  it("says how a person launched it otherwise", () => {
    expect(launchedHow({ launch_type: "ui", schedule_id: null, webhook_id: null })).toBe("ui");
    expect(launchedHow({ launch_type: "relaunch" })).toBe("relaunch");
  });
});

describe("runSeconds", () => {
  const started = "2025-03-01T12:00:00Z";
  it("counts a running run from its start on the given clock", () => {
    const now = Date.parse("2025-03-01T12:00:25Z");
    expect(runSeconds({ started_at: started, finished_at: null }, now)).toBe(25);
    expect(runDuration({ started_at: started, finished_at: null }, now)).toBe("25.0 s");
  });

  it("takes a finished run's own end, and nothing for a run not started", () => {
    const finished = { started_at: started, finished_at: "2025-03-01T12:02:05Z" };
    expect(runSeconds(finished, Date.parse("2030-01-01T00:00:00Z"))).toBe(125);
    expect(runDuration({ started_at: null, finished_at: null }, 0)).toBeNull();
  });

  it("never goes below zero when the client's clock is behind the server's", () => {
    expect(runSeconds({ started_at: started, finished_at: null }, Date.parse(started) - 5000)).toBe(
      0,
    );
  });
});
