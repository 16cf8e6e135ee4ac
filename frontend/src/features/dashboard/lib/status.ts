import type { Schemas } from "@/api/client";
import { RUN_STATUS_COLORS } from "@/lib/run-status";

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

/** A bar's fill: the colour's 6th shade, readable on the light and the dark background. */
export const statusFill = (status: RunStatus) =>
  `var(--mantine-color-${RUN_STATUS_COLORS[status]}-6)`;
