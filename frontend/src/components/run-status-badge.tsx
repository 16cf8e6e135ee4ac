import { Badge, type BadgeProps } from "@mantine/core";
import type { Schemas } from "@/api/client";
import { RUN_STATUS_COLORS, runStatusLabel } from "@/lib/run-status";

interface RunStatusBadgeProps extends Omit<BadgeProps, "color" | "variant" | "children"> {
  status: Schemas["RunStatus"];
}

export function RunStatusBadge({ status, ...rest }: RunStatusBadgeProps) {
  return (
    <Badge color={RUN_STATUS_COLORS[status]} variant="light" {...rest}>
      {runStatusLabel(status)}
    </Badge>
  );
}
