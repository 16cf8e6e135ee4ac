import type { StreamSink } from "@/features/audit/api/get-stream";

/** Records waiting longer than this mean the sink is behind (the streamer polls every second). */
export const BEHIND_SECONDS = 60;

export interface StreamHealth {
  label: string;
  color: "green" | "yellow" | "red" | "gray";
}

/** How a sink fares, in a word: failing (its last batch failed), behind (records have waited
 * over a minute), not configured (records of a sink taken out of the settings), or up to date. */
export function streamHealth(
  sink: Pick<StreamSink, "configured" | "failures" | "backlog" | "oldest_pending_seconds">,
): StreamHealth {
  if (!sink.configured) return { label: "not configured", color: "gray" };
  if (sink.failures > 0) return { label: "failing", color: "red" };
  if (sink.backlog > 0 && (sink.oldest_pending_seconds ?? 0) > BEHIND_SECONDS) {
    return { label: "behind", color: "yellow" };
  }
  return { label: "up to date", color: "green" };
}

/** 42 -> "42 s", 600 -> "10 min", 7200 -> "2 h", null -> "—". */
export function formatAge(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "—";
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}
