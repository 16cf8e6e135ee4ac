import { Badge, Tooltip } from "@mantine/core";
import type { Schemas } from "@/api/client";

export function WebhookState({ webhook }: { webhook: Schemas["WebhookRead"] }) {
  if (webhook.disabled_reason) {
    return (
      <Tooltip label={webhook.disabled_reason} multiline w={280}>
        <Badge color="red" variant="light">
          Disabled by Steward
        </Badge>
      </Tooltip>
    );
  }
  return webhook.enabled ? <Badge color="green">On</Badge> : <Badge color="gray">Off</Badge>;
}

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
