import { describe, expect, it } from "vitest";
import {
  launchValues,
  launchedFrom,
  launchedHow,
  runDuration,
  runSeconds,
} from "@/features/runs/lib/run-facts";
import { makeRun } from "@/testing/make-run";

describe("launchedHow", () => {
  it("names the schedule or webhook that launched a run", () => {
    expect(launchedHow({ launch_type: "schedule", schedule_id: 3, webhook_id: null })).toBe(
      "schedule 3",
    );
    expect(launchedHow({ launch_type: "webhook", schedule_id: null, webhook_id: 5 })).toBe(
      "webhook 5",
    );
  });

  it("names a schedule's owner, a workflow run, and shows the trigger where no address is", () => {
    const scheduled = { launch_type: "schedule", schedule_id: 3, webhook_id: null } as const;
    expect(launchedHow({ ...scheduled, launched_by: "alice" })).toBe("schedule 3 (alice)");
    const node = { launch_type: "workflow", schedule_id: null, webhook_id: null } as const;
    expect(launchedHow({ ...node, workflow_run_id: 9 })).toBe("workflow run 9");
    expect(launchedFrom({ ...scheduled, launched_by: "alice", source_ip: "" })).toBe(
      "via schedule 3 (alice)",
    );
    expect(launchedFrom({ ...node, workflow_run_id: 9, source_ip: "" })).toBe("via workflow run 9");
    expect(launchedFrom({ launch_type: "ui", source_ip: "10.0.0.5" })).toBe("10.0.0.5");
    expect(launchedFrom({ launch_type: "ui", source_ip: "" })).toBe("—");
  });

  it("says how a person launched it otherwise", () => {
    expect(launchedHow({ launch_type: "ui", schedule_id: null, webhook_id: null })).toBe("ui");
    expect(launchedHow({ launch_type: "relaunch" })).toBe("relaunch");
  });
});

describe("launchValues", () => {
  it("lists the answers and extra vars given, then the launch settings that were set", () => {
    const run = makeRun({
      params: {
        ...makeRun().params,
        launch_vars: { db_name: "ORCL", threads: 8 },
        limit: "db01",
        check_mode: true,
      },
    });
    expect(launchValues(run.params)).toEqual([
      { kind: "answer", name: "db_name", value: "ORCL" },
      { kind: "answer", name: "threads", value: "8" },
      { kind: "launch", name: "limit", value: "db01" },
      { kind: "launch", name: "check_mode", value: "true" },
    ]);
    expect(launchValues(makeRun().params)).toEqual([]);
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
