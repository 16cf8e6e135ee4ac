import { Badge } from "@mantine/core";
import type { Schemas } from "@/api/client";

const COLORS: Record<Schemas["RunStatus"], string> = {
  queued: "gray",
  running: "blue",
  successful: "green",
  failed: "red",
  error: "orange",
  canceled: "yellow",
  timed_out: "grape",
};

export function RunStatusBadge({ status }: { status: Schemas["RunStatus"] }) {
  return (
    <Badge color={COLORS[status]} variant="light">
      {status.replace("_", " ")}
    </Badge>
  );
}
