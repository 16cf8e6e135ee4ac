import type { Schemas } from "@/api/client";

type RunStatus = Schemas["RunStatus"];

/** Every status of a run, in the order of its life. */
export const RUN_STATUSES: readonly RunStatus[] = [
  "queued",
  "running",
  "successful",
  "failed",
  "error",
  "canceled",
  "timed_out",
];

/** The Mantine colour of each status: the badges, and the charts that read like them. */
export const RUN_STATUS_COLORS: Record<RunStatus, string> = {
  queued: "gray",
  running: "blue",
  successful: "green",
  failed: "red",
  error: "orange",
  canceled: "yellow",
  timed_out: "grape",
};

export const runStatusLabel = (status: RunStatus) => status.replace("_", " ");
