import type { Run } from "@/features/runs/api/get-run";
import { formatSeconds } from "@/features/runs/lib/timeline";

/** How a run was started: "ui", "api", "relaunch of #12", "schedule 3", "webhook 5". */
export function launchedHow(run: Pick<Run, "launch_type" | "schedule_id" | "webhook_id">) {
  if (run.schedule_id) return `schedule ${run.schedule_id}`;
  if (run.webhook_id) return `webhook ${run.webhook_id}`;
  return run.launch_type;
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
