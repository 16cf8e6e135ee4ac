import { Badge, Card, Group, Pagination, Stack, Table, Text, Title } from "@mantine/core";
import { useState } from "react";
import { Link } from "react-router";
import { QueryState } from "@/components/query-state";
import { useInstanceHealth } from "@/features/hosts/api/get-health";
import { statusColor, statusLabel } from "@/features/hosts/lib/health";
import { formatDateTime, plural } from "@/lib/format";
import { paths } from "@/lib/paths";

const PAGE = 20;

/** Every project's hosts' health (admins): "N of M unreachable now" across the instance, the
 * periodic pass's last run, and the failing hosts with their project, inventory and reason. */
export function InstanceHealth() {
  const [page, setPage] = useState(1);
  const health = useInstanceHealth(page, PAGE);
  return (
    <Stack gap="xs" component="section" aria-label="Health of every host">
      <Title order={3}>Health</Title>
      <QueryState query={health} loading="Loading every host's health">
        {(read) => (
          <Stack gap="sm">
            <Card withBorder padding="sm">
              <Group gap="lg" wrap="wrap">
                <Text fw={600} c={read.unreachable ? "red" : undefined}>
                  {read.unreachable} of {plural(read.hosts, "host")} unreachable now
                </Text>
                <Text size="sm" c="dimmed">
                  {read.checked} checked
                </Text>
                <Text size="sm" c="dimmed">
                  {read.sweep_started_at
                    ? `periodic check last started ${formatDateTime(read.sweep_started_at)}` +
                      (read.sweep_finished_at
                        ? `, ${plural(read.sweep_hosts, "host")} in the last finished pass`
                        : "")
                    : "no periodic check yet (STEWARD_HEALTH_INTERVAL_SECONDS)"}
                </Text>
              </Group>
            </Card>
            {read.items.length > 0 && (
              <Table.ScrollContainer minWidth={560}>
                <Table striped fz="sm" aria-label="Unreachable hosts">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Host</Table.Th>
                      <Table.Th>Project / inventory</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th>Checked</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {read.items.map((h) => (
                      <Table.Tr key={`${h.inventory_id}/${h.host}`}>
                        <Table.Td>
                          <Link to={paths.host(h.project_id, h.host)}>{h.host}</Link>
                        </Table.Td>
                        <Table.Td>
                          {h.project} / {h.inventory}
                        </Table.Td>
                        <Table.Td>
                          <Badge color={statusColor(h.status)} variant="light">
                            {statusLabel(h.status)}
                          </Badge>
                          {h.reason && (
                            <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                              {h.reason}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>{formatDateTime(h.checked_at)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            {read.total > PAGE && (
              <Pagination
                size="sm"
                total={Math.ceil(read.total / PAGE)}
                value={page}
                onChange={setPage}
              />
            )}
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
