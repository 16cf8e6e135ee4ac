import { Badge } from "@mantine/core";
import type { Schemas } from "@/api/client";

/** a workflow run's or a node's; `queued`: a node whose run waits for a slot (node-run.ts) */
type Status = Schemas["WorkflowRunStatus"] | Schemas["NodeStatus"] | "queued";

export const STATUS_COLORS: Record<Status, string> = {
  pending: "gray",
  queued: "cyan",
  running: "blue",
  waiting: "violet",
  successful: "green",
  failed: "red",
  skipped: "gray",
  canceled: "yellow",
};

/** The status of a workflow run or of one of its nodes. */
export function WorkflowStatusBadge({ status }: { status: Status }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant={status === "skipped" ? "outline" : "light"}>
      {status}
    </Badge>
  );
}
