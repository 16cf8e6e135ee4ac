import { Button, Group, Stack, Text } from "@mantine/core";
import type { Schemas } from "@/api/client";
import type { Verdict } from "@/features/workflows/api/workflow-runs";
import { decisionButtons } from "@/features/workflows/lib/node-run";

interface ApprovalDecisionProps {
  node: Schemas["NodeRunRead"];
  /** the run's `can_decide`: the caller holds workflow:approve */
  canDecide: boolean;
  onDecide: (verdict: Verdict) => void;
}

/**
 * A waiting approval node's Approve and Deny buttons, each disabled with the server's reason
 * when the caller may not (the launcher of the run, when the node wants someone else), and who
 * may approve it. Nothing for a node that does not wait.
 */
export function ApprovalDecision({ node, canDecide, onDecide }: ApprovalDecisionProps) {
  const buttons = decisionButtons(node, canDecide);
  const waiting = node.kind === "approval" && node.status === "waiting";
  if (!waiting) return null;
  const refused = [buttons.approve.reason, buttons.deny.reason].filter(
    (reason, i, all) => reason && all.indexOf(reason) === i,
  );
  return (
    <Stack gap={2} align="flex-start">
      {buttons.shown && (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-xs"
            color="green"
            disabled={!buttons.approve.enabled}
            title={buttons.approve.reason || undefined}
            onClick={() => onDecide("approve")}
            aria-label={`Approve ${node.key}`}
          >
            Approve
          </Button>
          <Button
            size="compact-xs"
            color="red"
            variant="light"
            disabled={!buttons.deny.enabled}
            title={buttons.deny.reason || undefined}
            onClick={() => onDecide("deny")}
            aria-label={`Deny ${node.key}`}
          >
            Deny
          </Button>
        </Group>
      )}
      {buttons.shown &&
        refused.map((reason) => (
          <Text key={reason} size="xs" c="orange" role="note">
            {reason}
          </Text>
        ))}
      {buttons.who && (
        <Text size="xs" c="dimmed">
          May approve: {buttons.who}
        </Text>
      )}
    </Stack>
  );
}
