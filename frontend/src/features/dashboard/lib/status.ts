import type { Schemas } from "@/api/client";

type RunStatus = Schemas["RunStatus"];

/** Bottom to top in a day's bar: outcomes first, then what is still going on. */
export const STACK_ORDER: readonly RunStatus[] = [
  "successful",
  "failed",
  "error",
  "timed_out",
  "canceled",
  "running",
  "queued",
];

/** The Mantine colours of the run status badges, so a bar reads like the badges around it. */
export const STATUS_COLORS: Record<RunStatus, string> = {
  queued: "gray",
  running: "blue",
  successful: "green",
  failed: "red",
  error: "orange",
  canceled: "yellow",
  timed_out: "grape",
};

export const statusLabel = (status: RunStatus) => status.replace("_", " ");

/** A bar's fill: the colour's 6th shade, readable on the light and the dark background. */
export const statusFill = (status: RunStatus) => `var(--mantine-color-${STATUS_COLORS[status]}-6)`;
