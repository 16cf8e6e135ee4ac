import { describe, expect, it } from "vitest";
import {
  EMPTY_PROGRESS,
  type ProgressEvent,
  applyProgress,
  quietHosts,
  summarize,
  taskPosition,
} from "@/features/runs/lib/progress";

const T0 = Date.parse("2026-01-01T10:00:00Z");
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

let counter = 0;
function event(kind: ProgressEvent["kind"], fields: Partial<ProgressEvent> = {}): ProgressEvent {
  counter += 1;
  return { counter, kind, host: "", task: "", play: "patch", at: at(0), status: null, ...fields };
}

function play(hosts: string[], taskCount: number | null, seconds = 0) {
  return event("play", { hosts, host_count: hosts.length, task_count: taskCount, at: at(seconds) });
}
const task = (name: string, seconds: number) => event("task", { task: name, at: at(seconds) });
const result = (host: string, name: string, status: ProgressEvent["status"], seconds: number) =>
  event("result", { host, task: name, status, at: at(seconds) });

describe("applyProgress", () => {
  it("follows the play's tasks and each host's current task", () => {
    const events = [
      play(["db1", "db2", "db3", "db4"], 4),
      task("ping", 1),
      result("db1", "ping", "ok", 2),
      result("db2", "ping", "changed", 2),
      result("db3", "ping", "unreachable", 3),
      result("db4", "ping", "ok", 3),
      task("stop db", 4),
      result("db1", "stop db", "failed", 6),
    ];
    const progress = applyProgress(EMPTY_PROGRESS, events);

    expect(taskPosition(progress)).toBe("task 2 of 4");
    expect(progress.task).toBe("stop db");
    // the unreachable host is out of the play: not on "stop db"
    expect(progress.hosts.db3).toMatchObject({ busy: false, task: "ping", outcome: "unreachable" });
    expect(progress.hosts.db2).toMatchObject({ busy: true, task: "stop db", since: T0 + 4000 });
    expect(progress.hosts.db1).toMatchObject({ busy: false, failed: 1, outcome: "failed" });
    expect(summarize(progress)).toEqual({
      hosts: 4,
      done: 2,
      ok: 1,
      changed: 1,
      failed: 1,
      unreachable: 1,
    });
  });

  it("skips events it already has (a resumed stream sends some again)", () => {
    const first = [play(["a"], 1), task("t", 1), result("a", "t", "ok", 2)];
    const once = applyProgress(EMPTY_PROGRESS, first);
    const twice = applyProgress(once, first);
    expect(twice).toBe(once);
    expect(twice.hosts.a?.ok).toBe(1);
    // control: a new result is counted
    const more = applyProgress(once, [result("a", "t", "ok", 3)]);
    expect(more.hosts.a?.ok).toBe(2);
    // the state before is left as it was (React keeps rendering it until the next one)
    expect(once.hosts.a?.ok).toBe(1);
  });

  it("says task N without a count when includes add tasks beyond the play's", () => {
    const progress = applyProgress(EMPTY_PROGRESS, [
      play(["a"], 1),
      task("one", 1),
      task("included", 2),
    ]);
    expect(taskPosition(progress)).toBe("task 2");
    expect(taskPosition(EMPTY_PROGRESS)).toBe("");
  });

  it("does not flag a host whose loop reports items, and still counts its task's time", () => {
    const progress = applyProgress(EMPTY_PROGRESS, [
      play(["oradb03"], 1),
      task("tick", 0),
      event("item", { host: "oradb03", task: "tick", at: at(200) }),
    ]);
    const fourMinutes = T0 + 4 * 60_000;
    expect(quietHosts(progress, fourMinutes, 3 * 60_000)).toEqual([]);
    expect(quietHosts(progress, fourMinutes, 30_000)).toEqual([
      { host: "oradb03", task: "tick", quietMs: 40_000 },
    ]);
    expect(progress.hosts.oradb03).toMatchObject({ busy: true, since: T0, ok: 0 });
    expect(progress.results).toBe(0); // an item is not the task's result
  });

  it("flags a host on one task longer than the threshold, not one that reported", () => {
    const progress = applyProgress(EMPTY_PROGRESS, [
      play(["oradb01", "oradb03"], 2),
      task("patch", 0),
      result("oradb01", "patch", "ok", 30),
    ]);
    const fourMinutes = T0 + 4 * 60_000;
    expect(quietHosts(progress, fourMinutes, 3 * 60_000)).toEqual([
      { host: "oradb03", task: "patch", quietMs: 4 * 60_000 },
    ]);
    expect(quietHosts(progress, fourMinutes, 5 * 60_000)).toEqual([]);
    const ended = applyProgress(progress, [event("stats", { at: at(300) })]);
    expect(quietHosts(ended, fourMinutes, 0)).toEqual([]);
    expect(ended.hosts.oradb03?.busy).toBe(false);
  });

  it("counts hosts it learns from results when the play did not list them", () => {
    const progress = applyProgress(EMPTY_PROGRESS, [
      event("play", { hosts: null, task_count: null }),
      task("t", 1),
      result("x", "t", "skipped", 2),
    ]);
    expect(progress.order).toEqual(["x"]);
    expect(summarize(progress)).toMatchObject({ hosts: 1, done: 1, ok: 1 });
  });
});
