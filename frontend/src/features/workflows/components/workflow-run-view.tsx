import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { FormError } from "@/components/form-error";
import {
  type Verdict,
  useCancelWorkflowRun,
  useDecide,
  useWorkflowRun,
} from "@/features/workflows/api/workflow-runs";
import { ApprovalDecision } from "@/features/workflows/components/approval-decision";
import { WorkflowGraph } from "@/features/workflows/components/workflow-graph";
import { WorkflowStatusBadge } from "@/features/workflows/components/workflow-status-badge";
import { nodeDuration, nodeLabel, shownStatus } from "@/features/workflows/lib/node-run";
import { formatDateTime } from "@/lib/format";
import { paths } from "@/lib/paths";
import { QueryState } from "@/components/query-state";

type NodeRun = Schemas["NodeRunRead"];

interface WorkflowRunViewProps {
  projectId: number;
  workflowRunId: number;
  /** may cancel it: run:cancel in the project */
  canCancel: boolean;
}

function DecisionModal({
  node,
  verdict,
  onClose,
  onDecide,
}: {
  node: NodeRun;
  verdict: Verdict;
  onClose: () => void;
  onDecide: (comment: string) => Promise<unknown>;
}) {
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const word = verdict === "approve" ? "Approve" : "Deny";
  const decide = async () => {
    setPending(true);
    setError(null);
    try {
      await onDecide(comment);
      onClose();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setPending(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={`${word} “${node.name}”`}>
      <Stack>
        <Text size="sm">
          {verdict === "approve"
            ? "The nodes that follow on success start now."
            : "The node fails: the nodes that follow on failure start now."}
        </Text>
        <Textarea
          label="Comment"
          description="optional, kept with the decision"
          maxLength={1000}
          autosize
          minRows={2}
          value={comment}
          onChange={(event) => setComment(event.currentTarget.value)}
        />
        <FormError message={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color={verdict === "approve" ? "green" : "red"}
            loading={pending}
            onClick={decide}
          >
            {word}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function WorkflowRunView({ projectId, workflowRunId, canCancel }: WorkflowRunViewProps) {
  const wrun = useWorkflowRun(projectId, workflowRunId);
  const decide = useDecide(projectId, workflowRunId);
  const cancel = useCancelWorkflowRun(projectId, workflowRunId);
  const [deciding, setDeciding] = useState<{ node: NodeRun; verdict: Verdict } | null>(null);

  return (
    <QueryState query={wrun} loading="Loading the workflow run" notFound="Workflow run not found">
      {(w) => {
        const nodes = w.nodes ?? [];
        const running = w.status === "running";
        const now = wrun.dataUpdatedAt; // under way: counted to the last read (polled while it runs)
        return (
          <Stack>
            <Group justify="space-between" wrap="wrap">
              <Group gap="sm">
                <Title order={3}>
                  Workflow run #{w.id} ·{" "}
                  {w.workflow_id !== null ? (
                    <Anchor component={Link} to={paths.workflow(projectId, w.workflow_id)} inherit>
                      {w.workflow_name}
                    </Anchor>
                  ) : (
                    w.workflow_name
                  )}
                </Title>
                <WorkflowStatusBadge status={w.status} />
              </Group>
              {running && canCancel && (
                <Button
                  color="red"
                  variant="light"
                  loading={cancel.isPending}
                  disabled={w.cancel_requested_at !== null}
                  onClick={() =>
                    cancel.mutate(undefined, {
                      onError: (error) =>
                        notifications.show({ color: "red", message: error.message }),
                    })
                  }
                >
                  {w.cancel_requested_at ? "Canceling…" : "Cancel"}
                </Button>
              )}
            </Group>
            <Text size="sm" c="dimmed">
              Launched by {w.launched_by || "a deleted user"} on {formatDateTime(w.created_at)}
              {w.finished_at ? ` · ended ${formatDateTime(w.finished_at)}` : ""}
            </Text>
            {w.status_reason && (
              <Alert color={w.status === "failed" ? "red" : "gray"} role="note">
                {w.status_reason}
              </Alert>
            )}
            <WorkflowGraph
              boxes={nodes.map((n) => ({
                key: n.key,
                label: n.kind === "approval" ? n.name : nodeLabel(n),
                status: shownStatus(n),
              }))}
              edges={w.edges ?? []}
            />
            <Table.ScrollContainer minWidth={320}>
              <Table verticalSpacing="sm" aria-label="Nodes">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Node</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Run</Table.Th>
                    <Table.Th visibleFrom="md">Why</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {nodes.map((n) => (
                    <Table.Tr key={n.key} data-node={n.key}>
                      <Table.Td>
                        <Stack gap={0}>
                          <Text size="sm" fw={500}>
                            {n.key}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {nodeLabel(n)}
                          </Text>
                        </Stack>
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={4} align="flex-start">
                          <WorkflowStatusBadge status={shownStatus(n)} />
                          {nodeDuration(n, now) !== null && (
                            <Text size="xs" c="dimmed" title="from its start to its end">
                              {nodeDuration(n, now)}
                            </Text>
                          )}
                          <ApprovalDecision
                            node={n}
                            canDecide={w.can_decide}
                            onDecide={(verdict) => setDeciding({ node: n, verdict })}
                          />
                          {n.kind === "apply" && n.reason && (
                            // why it waits, or its refusal ("plan again"): on phones too
                            <Text
                              size="xs"
                              c={n.status === "failed" ? "red" : "dimmed"}
                              hiddenFrom="md"
                            >
                              {n.reason}
                            </Text>
                          )}
                          {n.status === "waiting" && n.deadline_at && (
                            <Text size="xs" c="dimmed">
                              until {formatDateTime(n.deadline_at)}
                            </Text>
                          )}
                        </Stack>
                      </Table.Td>
                      <Table.Td>
                        {n.run_id !== null ? (
                          <Group gap={6} wrap="nowrap">
                            {n.run_status === "gone" ? (
                              // removed by retention: its id names nothing any more
                              <Text size="sm" c="dimmed" title="removed by the retention period">
                                #{n.run_id}
                              </Text>
                            ) : (
                              <Anchor
                                component={Link}
                                to={paths.run(projectId, n.run_id)}
                                size="sm"
                              >
                                #{n.run_id}
                              </Anchor>
                            )}
                            {n.run_status && (
                              <Badge variant="outline" color="gray" size="sm" visibleFrom="sm">
                                {n.run_status.replace("_", " ")}
                              </Badge>
                            )}
                          </Group>
                        ) : (
                          <Text size="sm" c="dimmed">
                            —
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td visibleFrom="md">
                        <Text size="sm">{n.reason}</Text>
                        {n.decided_at && (
                          <Text size="xs" c="dimmed">
                            {formatDateTime(n.decided_at)}
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {deciding && (
              <DecisionModal
                node={deciding.node}
                verdict={deciding.verdict}
                onClose={() => setDeciding(null)}
                onDecide={(comment) =>
                  decide.mutateAsync({ key: deciding.node.key, verdict: deciding.verdict, comment })
                }
              />
            )}
          </Stack>
        );
      }}
    </QueryState>
  );
}
