/** What the template page's charts draw, from the stats the API returns. */
import type { Schemas } from "@/api/client";

type Status = Schemas["RunStatus"];

/** One color per run status (the badges' colors, as hex for the canvas). */
export const STATUS_COLORS: Record<Status, string> = {
  successful: "#40c057",
  failed: "#fa5252",
  error: "#fd7e14",
  canceled: "#fab005",
  timed_out: "#be4bdb",
  running: "#228be6",
  queued: "#868e96",
};

export const TASK_COLORS = ["#228be6", "#fa5252", "#12b886", "#fd7e14", "#7950f2"];

type SuccessRate = Schemas["SuccessRate"];

/** What a success rate is of: "3 of 5 ended runs succeeded (2 canceled left out)". The rate
 * itself is the server's (the dashboard's is the same figure). */
export function rateText(rate: SuccessRate): string {
  const canceled = rate.finished - rate.judged;
  if (rate.judged === 0) return rate.finished === 0 ? "no ended run" : "only canceled runs";
  const leftOut = canceled > 0 ? ` (${canceled} canceled left out)` : "";
  return `${rate.successful} of ${rate.judged} ended runs succeeded${leftOut}`;
}

/** uPlot data for the durations chart: x = position of the run (oldest first), then one
 * column per status present, a value only where the run has that status (a point each). */
export function durationColumns(runs: readonly { status: Status; seconds: number | null }[]): {
  statuses: Status[];
  data: (number | null)[][];
} {
  const statuses = [...new Set(runs.filter((r) => r.seconds !== null).map((r) => r.status))];
  const x = runs.map((_, i) => i);
  const all = runs.map((r) => r.seconds);
  const columns = statuses.map((status) =>
    runs.map((r) => (r.status === status ? r.seconds : null)),
  );
  return { statuses, data: [x, all, ...columns] };
}
