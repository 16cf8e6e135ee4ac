import { Badge } from "@mantine/core";
import type { Schemas } from "@/api/client";

type Status = Schemas["WorkflowRunStatus"] | Schemas["NodeStatus"];

export const STATUS_COLORS: Record<Status, string> = {
  pending: "gray",
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
