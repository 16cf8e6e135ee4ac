import { Badge } from "@mantine/core";
import type { Schemas } from "@/api/client";

const OUTCOME_COLORS: Record<Schemas["DeliveryOutcome"], string> = {
  launched: "green",
  matched: "teal",
  ignored: "gray",
  rejected: "red",
  rate_limited: "orange",
  failed: "red",
};

export function OutcomeBadge({ outcome }: { outcome: Schemas["DeliveryOutcome"] }) {
  return (
    <Badge color={OUTCOME_COLORS[outcome]} variant="light">
      {outcome.replace("_", " ")}
    </Badge>
  );
}
