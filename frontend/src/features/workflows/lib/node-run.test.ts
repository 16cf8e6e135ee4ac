import { describe, expect, it } from "vitest";
import { nodeDuration, nodeLabel, shownStatus } from "@/features/workflows/lib/node-run";
import { formatDuration } from "@/lib/format";

describe("node runs as shown", () => {
  it("shows a launched node whose run waits for a slot as queued", () => {
    expect(shownStatus({ status: "running", run_status: "queued" })).toBe("queued");
    expect(shownStatus({ status: "running", run_status: "running" })).toBe("running");
    expect(shownStatus({ status: "successful", run_status: "successful" })).toBe("successful");
    expect(shownStatus({ status: "failed", run_status: "gone" })).toBe("failed");
    expect(shownStatus({ status: "waiting", run_status: null })).toBe("waiting");
  });

  it("gives a duration from start to end, or to now while under way", () => {
    const started = "2026-11-24T10:00:00Z";
    expect(nodeDuration({ started_at: null, finished_at: null }, Date.now())).toBeNull();
    expect(nodeDuration({ started_at: started, finished_at: "2026-11-24T10:00:07.6Z" }, 0)).toBe(
      "8 s",
    );
    const now = Date.parse("2026-11-24T10:03:05Z");
    expect(nodeDuration({ started_at: started, finished_at: null }, now)).toBe("3 min 05 s");
    expect(formatDuration(2 * 3600 + 7 * 60 + 30)).toBe("2 h 07 min");
    expect(formatDuration(-3)).toBe("0 s");
  });
});

describe("node labels", () => {
  const node = { template_name: "site", name: "", plan_node: null };
  it("names what a node runs, plans and applies", () => {
    expect(nodeLabel({ ...node, kind: "template" })).toBe("site");
    expect(nodeLabel({ ...node, kind: "plan" })).toBe("plan: site");
    expect(nodeLabel({ ...node, kind: "apply", plan_node: "plan-1" })).toBe(
      "apply: the plan of 'plan-1'",
    );
    expect(nodeLabel({ ...node, kind: "approval", name: "Go?" })).toBe("approval: Go?");
  });
});
