import {
  Anchor,
  Badge,
  Code,
  Drawer,
  Group,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { useDeliveries, useDelivery } from "@/features/webhooks/api/deliveries";
import { OutcomeBadge } from "@/features/webhooks/components/outcome-badge";
import { OlderButton } from "@/components/older-button";
import { QueryState } from "@/components/query-state";
import { formatDateTime } from "@/lib/format";
import { paths } from "@/lib/paths";

type Delivery = Schemas["DeliverySummary"];

/** The run a delivery launched, or the workflow run (a workflow's webhook). */
function RunLink({
  projectId,
  delivery,
}: {
  projectId: number;
  delivery: Pick<Schemas["DeliverySummary"], "run_id" | "workflow_run_id">;
}) {
  const { run_id: runId, workflow_run_id: workflowRunId } = delivery;
  if (workflowRunId != null)
    return (
      <Anchor component={Link} to={paths.workflowRun(projectId, workflowRunId)}>
        Workflow run #{workflowRunId}
      </Anchor>
    );
  if (runId === null)
    return (
      <Text span c="dimmed">
        —
      </Text>
    );
  return (
    <Anchor component={Link} to={paths.run(projectId, runId)}>
      Run #{runId}
    </Anchor>
  );
}

interface DeliveriesTableProps {
  projectId: number;
  webhookId: number;
  /** the delivery shown in the drawer, or null */
  openId: number | null;
  onOpen: (deliveryId: number | null) => void;
}

/** Every delivery received, newest first: when, the outcome and why, the run it started. */
export function DeliveriesTable({ projectId, webhookId, openId, onOpen }: DeliveriesTableProps) {
  const deliveries = useDeliveries(projectId, webhookId);
  return (
    <QueryState
      query={deliveries}
      loading="Loading deliveries"
      failed="Could not load deliveries"
      small
    >
      {(data) => {
        const rows: Delivery[] = data.pages.flatMap((page) => page.items);
        return (
          <Stack gap="xs">
            {rows.length === 0 ? (
              <Text c="dimmed" size="sm">
                No delivery yet. Send a test delivery, or point the sender at the URL above.
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={320}>
                <Table aria-label="Deliveries" highlightOnHover verticalSpacing="xs" fz="sm">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Received</Table.Th>
                      <Table.Th>Outcome</Table.Th>
                      <Table.Th visibleFrom="sm">Reason</Table.Th>
                      <Table.Th visibleFrom="md">Event</Table.Th>
                      <Table.Th>Run</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((d) => (
                      <Table.Tr key={d.id}>
                        <Table.Td>
                          <UnstyledButton
                            onClick={() => onOpen(d.id)}
                            aria-label={`Delivery ${d.id}`}
                            td="underline"
                            fz="sm"
                          >
                            {formatDateTime(d.received_at)}
                          </UnstyledButton>
                          {d.test && (
                            <Badge size="xs" ml={6} variant="outline">
                              test
                            </Badge>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <OutcomeBadge outcome={d.outcome} />
                        </Table.Td>
                        <Table.Td visibleFrom="sm">
                          <Text size="sm" lineClamp={2}>
                            {d.reason}
                          </Text>
                        </Table.Td>
                        <Table.Td visibleFrom="md">{d.event || "—"}</Table.Td>
                        <Table.Td>
                          <RunLink projectId={projectId} delivery={d} />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            {deliveries.hasNextPage && (
              <Group>
                <OlderButton pages={deliveries} size="xs">
                  Older deliveries
                </OlderButton>
              </Group>
            )}
            <DeliveryDrawer
              projectId={projectId}
              webhookId={webhookId}
              deliveryId={openId}
              onClose={() => onOpen(null)}
            />
          </Stack>
        );
      }}
    </QueryState>
  );
}

/** The body as sent: indented when it is JSON. */
function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function DeliveryDrawer(props: {
  projectId: number;
  webhookId: number;
  deliveryId: number | null;
  onClose: () => void;
}) {
  const { projectId, webhookId, deliveryId, onClose } = props;
  const phone = useMediaQuery("(max-width: 48em)");
  const delivery = useDelivery(projectId, webhookId, deliveryId);
  return (
    <Drawer
      opened={deliveryId !== null}
      onClose={onClose}
      position="right"
      size={phone ? "100%" : "xl"}
      title={`Delivery ${deliveryId ?? ""}`}
    >
      <QueryState query={delivery} loading="Loading the delivery" notFound="Delivery not found">
        {(d) => (
          <Stack>
            <Group gap="sm">
              <OutcomeBadge outcome={d.outcome} />
              {d.test && <Badge variant="outline">test</Badge>}
              <Text size="sm">HTTP {d.status_code}</Text>
              <Text size="sm" c="dimmed">
                {formatDateTime(d.received_at)} from {d.source_ip || "?"}
              </Text>
            </Group>
            <Text size="sm">{d.reason}</Text>
            <Text size="sm">
              Run: <RunLink projectId={projectId} delivery={d} />
              {" · "}
              {d.authenticated ? "authenticated" : "not authenticated"}
              {d.delivery_key ? ` · id ${d.delivery_key}` : ""}
            </Text>
            {Object.keys(d.launch).length > 0 && (
              <>
                <Text fw={600} size="sm">
                  Launch values taken
                </Text>
                <Code block>{JSON.stringify(d.launch, null, 2)}</Code>
              </>
            )}
            <Text fw={600} size="sm">
              Headers
            </Text>
            <Table aria-label="Headers" fz="xs" withTableBorder verticalSpacing={2}>
              <Table.Tbody>
                {Object.entries(d.headers).map(([name, value]) => (
                  <Table.Tr key={name}>
                    <Table.Th ff="monospace" w="40%">
                      {name}
                    </Table.Th>
                    <Table.Td ff="monospace" style={{ wordBreak: "break-all" }}>
                      {value}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Text fw={600} size="sm">
              Body{d.body_truncated ? " (first 64 KiB)" : ""}
            </Text>
            <Code block style={{ whiteSpace: "pre-wrap", wordBreak: "break-all" }}>
              {prettyBody(d.body) || "(empty)"}
            </Code>
          </Stack>
        )}
      </QueryState>
    </Drawer>
  );
}
