import { describe, expect, it } from "vitest";
import { applyProgress, EMPTY_PROGRESS, type ProgressEvent, quietHosts } from "./progress";
import cases from "./quiet-cases.json";

// The server's quiet rule (src/steward/runs/quiet.py, the host_quiet notification) and this one
// answer the same cases: tests/runs/test_quiet_conformance.py stores each case's events, checks
// the server's quiet hosts and that `progress` is what the live stream sends for them.
const NOW = Date.parse("2026-01-01T12:00:00+00:00");

describe("the quiet rule agrees with the server's", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_, c) => {
    const progress = applyProgress(EMPTY_PROGRESS, c.progress as ProgressEvent[]);
    const found = quietHosts(progress, NOW, c.threshold_seconds * 1000).map((h) => [
      h.host,
      h.task,
      h.quietMs / 1000,
    ]);
    const byHost = (a: (string | number)[], b: (string | number)[]) =>
      String(a[0]).localeCompare(String(b[0]));
    expect(found.sort(byHost)).toEqual([...c.quiet].sort(byHost));
  });
});
