/**
 * A run's progress while it goes, from the progress events of its live stream (the server's
 * `runs.output.progress`): which play and task it is on ("task 2 of 4"), each host's current
 * task and since when, its results so far, and the hosts quiet for longer than a threshold.
 * Pure: events in, a new state out; an event already applied (a resumed stream) is skipped.
 */

/** item: one of a loop's items came, so the host is not quiet (its task has no result yet) */
export type ProgressKind = "play" | "task" | "item" | "result" | "stats";
export type ResultStatus = "ok" | "changed" | "failed" | "unreachable" | "skipped" | "ignored";

export interface ProgressEvent {
  counter: number;
  kind: ProgressKind;
  host: string;
  task: string;
  play: string;
  /** ISO 8601: when the event was emitted */
  at: string;
  status: ResultStatus | null;
  /** play starts: the play's hosts (the first 1000), their number and its tasks as written */
  hosts?: string[] | null;
  host_count?: number | null;
  task_count?: number | null;
}

export type Outcome = "pending" | "ok" | "changed" | "failed" | "unreachable";

export interface HostProgress {
  host: string;
  /** the task it is on (busy) or the last one it reported */
  task: string;
  /** ms since the epoch: when it started that task, or when it reported its result */
  since: number;
  /** ms since the epoch: its last sign of life (the task's start, a loop item, a result) */
  heard: number;
  /** on a task without a result yet */
  busy: boolean;
  /** failed or unreachable: the play goes on without it */
  out: boolean;
  ok: number;
  changed: number;
  failed: number;
  unreachable: number;
  skipped: number;
  /** its worst result so far */
  outcome: Outcome;
}

export interface Progress {
  /** the last event applied (-1: none) */
  last: number;
  play: string;
  /** 1-based; 0 before the first play */
  playIndex: number;
  task: string;
  /** 1-based within the play; 0 before its first task */
  taskIndex: number;
  /** the play's tasks as written (an include counts once), when known */
  taskCount: number | null;
  taskStartedAt: number | null;
  /** the current play's hosts (their names, in order) */
  playHosts: string[];
  hosts: Record<string, HostProgress>;
  /** every host seen, in the order first seen */
  order: string[];
  /** results received */
  results: number;
  /** the playbook's recap came: every host is done */
  finished: boolean;
}

export const EMPTY_PROGRESS: Progress = {
  last: -1,
  play: "",
  playIndex: 0,
  task: "",
  taskIndex: 0,
  taskCount: null,
  taskStartedAt: null,
  playHosts: [],
  hosts: {},
  order: [],
  results: 0,
  finished: false,
};

const RANK: Record<Outcome, number> = { pending: 0, ok: 1, changed: 2, failed: 3, unreachable: 4 };

function worse(a: Outcome, b: Outcome): Outcome {
  return RANK[b] > RANK[a] ? b : a;
}

function time(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? Date.now() : ms;
}

function newHost(host: string, since: number): HostProgress {
  return {
    host,
    task: "",
    since,
    heard: since,
    busy: false,
    out: false,
    ok: 0,
    changed: 0,
    failed: 0,
    unreachable: 0,
    skipped: 0,
    outcome: "pending",
  };
}

/** The state after `events` (in counter order; those at or before `state.last` skipped). */
export function applyProgress(state: Progress, events: readonly ProgressEvent[]): Progress {
  const fresh = events.filter((event) => event.counter > state.last);
  if (fresh.length === 0) return state;
  const next: Progress = { ...state, hosts: { ...state.hosts }, order: [...state.order] };
  const host = (name: string, at: number): HostProgress => {
    const known = next.hosts[name];
    // copied once per batch at most: a state other renders still hold is never changed
    if (known && state.hosts[name] !== known) return known;
    const made = known ? { ...known } : newHost(name, at);
    if (!known) next.order.push(name);
    next.hosts[name] = made;
    return made;
  };
  for (const event of fresh) {
    next.last = event.counter;
    const at = time(event.at);
    if (event.kind === "play") {
      next.play = event.play;
      next.playIndex += 1;
      next.task = "";
      next.taskIndex = 0;
      next.taskStartedAt = null;
      next.taskCount = event.task_count ?? null;
      next.playHosts = event.hosts ?? [];
      for (const name of next.playHosts) host(name, at);
    } else if (event.kind === "task") {
      next.task = event.task;
      next.taskIndex += 1;
      next.taskStartedAt = at;
      const working = next.playHosts.length > 0 ? next.playHosts : next.order;
      for (const name of working) {
        if (next.hosts[name]?.out) continue;
        const h = host(name, at);
        h.busy = true;
        h.task = event.task;
        h.since = at;
        h.heard = at;
      }
    } else if (event.kind === "item" && event.host) {
      host(event.host, at).heard = at; // still on its task, and not quiet
    } else if (event.kind === "result" && event.host) {
      next.results += 1;
      const h = host(event.host, at);
      h.busy = false;
      h.task = event.task;
      h.since = at;
      h.heard = at;
      const status = event.status ?? "ok";
      if (status === "changed") {
        h.ok += 1;
        h.changed += 1;
        h.outcome = worse(h.outcome, "changed");
      } else if (status === "failed" || status === "unreachable") {
        h[status] += 1;
        h.out = true;
        h.outcome = worse(h.outcome, status);
      } else if (status === "skipped") {
        h.skipped += 1;
        h.outcome = worse(h.outcome, "ok");
      } else {
        h.ok += 1;
        h.outcome = worse(h.outcome, "ok");
      }
    } else if (event.kind === "stats") {
      next.finished = true;
      for (const name of next.order) {
        if (next.hosts[name]?.busy) host(name, at).busy = false;
      }
    }
  }
  return next;
}

export interface ProgressSummary {
  /** hosts of the play (or every host seen) */
  hosts: number;
  /** of them, those not on the current task any more */
  done: number;
  ok: number;
  changed: number;
  failed: number;
  unreachable: number;
}

/** The hosts by their worst result so far (unreachable apart from failed), and how many
 * have finished the current task. */
export function summarize(progress: Progress): ProgressSummary {
  const names = progress.playHosts.length > 0 ? progress.playHosts : progress.order;
  const summary: ProgressSummary = {
    hosts: names.length,
    done: 0,
    ok: 0,
    changed: 0,
    failed: 0,
    unreachable: 0,
  };
  for (const name of names) {
    const h = progress.hosts[name];
    if (!h) continue;
    if (!h.busy) summary.done += 1;
    if (h.outcome !== "pending") summary[h.outcome] += 1;
  }
  return summary;
}

/** "task 2 of 4", "task 5" (more than the play's count: included tasks), "" before any. */
export function taskPosition(progress: Progress): string {
  if (progress.taskIndex === 0) return "";
  const count = progress.taskCount;
  return count !== null && progress.taskIndex <= count
    ? `task ${progress.taskIndex} of ${count}`
    : `task ${progress.taskIndex}`;
}

/** Hosts on a task that gave no sign of life (a result, a loop's item) for `thresholdMs`, the
 * quietest first. The notification `host_quiet` tells the same hosts by the same rule, on the
 * server (`src/steward/runs/quiet.py`): a change here is made there too, and both answer the
 * cases of quiet-cases.json (quiet-conformance.test.ts, tests/runs/test_quiet_conformance.py). */
export function quietHosts(
  progress: Progress,
  now: number,
  thresholdMs: number,
): { host: string; task: string; quietMs: number }[] {
  if (progress.finished) return [];
  return progress.order
    .flatMap((name) => progress.hosts[name] ?? [])
    .filter((h) => h.busy && now - h.heard >= thresholdMs)
    .map((h) => ({ host: h.host, task: h.task, quietMs: now - h.heard }))
    .sort((a, b) => b.quietMs - a.quietMs);
}

/** "4 min", "1 h 5 min", "12 s": how long, as the progress panel says it. */
export function formatFor(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
