import type { Schemas } from "@/api/client";
import { valuesOf } from "@/api/enums";
import type { Run } from "@/features/runs/api/get-run";
import { formatSeconds } from "@/features/runs/lib/timeline";

type Launch = Pick<Run, "launch_type" | "schedule_id" | "webhook_id"> &
  Partial<Pick<Run, "workflow_run_id" | "launched_by">>;

/** How a run was started: "ui", "api", "relaunch", "schedule 3 (alice)" (a schedule fires as
 * its owner), "webhook 5", "workflow run 9". */
export function launchedHow(run: Launch) {
  if (run.workflow_run_id) return `workflow run ${run.workflow_run_id}`;
  if (run.schedule_id) {
    return `schedule ${run.schedule_id}${run.launched_by ? ` (${run.launched_by})` : ""}`;
  }
  if (run.webhook_id) return `webhook ${run.webhook_id}`;
  return run.launch_type;
}

/** Where a run came from: the address of who launched it, or what launched it (a schedule,
 * a webhook or a workflow run has no address of its own): "via schedule 3 (alice)". */
export function launchedFrom(run: Launch & Pick<Run, "source_ip">): string {
  if (run.source_ip) return run.source_ip;
  const trigger = run.workflow_run_id || run.schedule_id || run.webhook_id;
  return trigger ? `via ${launchedHow(run)}` : "—";
}

/** The launch settings the runs list shows and filters by (the API's `launch=field:value`),
 * in the order shown: each of the API's `LaunchSetting`. */
export const LAUNCH_FIELDS = valuesOf<Schemas["LaunchSetting"]>({
  limit: true,
  tags: true,
  skip_tags: true,
  check_mode: true,
  diff_mode: true,
  verbosity: true,
  forks: true,
  ref: true,
});

export interface LaunchValue {
  /** answer: a survey answer or an extra var given at launch; launch: a launch setting */
  kind: "answer" | "launch";
  name: string;
  /** as the API searches it: strings as they are, other values as JSON */
  value: string;
}

const shown = (value: unknown): string =>
  typeof value === "string" ? value : JSON.stringify(value);

/** What was given at launch (secret answers are never in `launch_vars`), then the launch
 * settings that were set: what the runs list shows and can filter by. */
export function launchValues(params: Run["params"]): LaunchValue[] {
  const answers = Object.entries(params.launch_vars ?? {}).map(([name, value]) => ({
    kind: "answer" as const,
    name,
    value: shown(value),
  }));
  const settings = LAUNCH_FIELDS.flatMap((name) => {
    const value: unknown = params[name];
    if (value === undefined || value === null || value === "" || value === false || value === 0)
      return [];
    return [{ kind: "launch" as const, name, value: shown(value) }];
  });
  return [...answers, ...settings];
}

/**
 * How long a run took, or has been running at `now` (the client's clock), or null before it
 * started. A started run counts from its start even while no line arrives.
 */
export function runSeconds(
  run: Pick<Run, "started_at" | "finished_at">,
  now: number,
): number | null {
  if (!run.started_at) return null;
  const end = run.finished_at ? Date.parse(run.finished_at) : now;
  return Math.max(0, (end - Date.parse(run.started_at)) / 1000);
}

export function runDuration(run: Pick<Run, "started_at" | "finished_at">, now: number) {
  const seconds = runSeconds(run, now);
  return seconds === null ? null : formatSeconds(seconds);
}
