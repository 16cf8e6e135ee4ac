import {
  Badge,
  Button,
  Card,
  Group,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { useState } from "react";
import { FormError } from "@/components/form-error";
import { QueryState } from "@/components/query-state";
import { useCheckHost, useHostHealth } from "@/features/hosts/api/get-health";
import { HealthChart } from "@/features/hosts/components/health-chart";
import { formatMs, statusColor, statusLabel, unreachableSpells } from "@/features/hosts/lib/health";
import { formatDateTime, plural } from "@/lib/format";

const RANGES = [
  { value: "1", label: "Day" },
  { value: "7", label: "Week" },
  { value: "30", label: "Month" },
];

/** The host's health on the port Ansible uses: its latest check per inventory (TCP connect and
 * SSH banner times), a check now, latency over time and when it was unreachable. */
export function HostHealth({ projectId, host }: { projectId: number; host: string }) {
  const [days, setDays] = useState("7");
  const health = useHostHealth(projectId, host, Number(days));
  const check = useCheckHost(projectId, host);
  return (
    <Stack gap="xs" aria-label="Health" component="section">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={3}>Health</Title>
        <Group gap="xs" wrap="wrap">
          <SegmentedControl size="xs" data={RANGES} value={days} onChange={setDays} />
          <Button
            size="xs"
            variant="light"
            loading={check.isPending}
            onClick={() => check.mutate()}
          >
            Check now
          </Button>
        </Group>
      </Group>
      <FormError message={check.error ? check.error.message : null} />
      <QueryState query={health} loading="Loading the host's health">
        {(read) => {
          const spells = unreachableSpells(read.history);
          const measured = read.history.some((c) => c.tcp_ms != null || c.unreachable);
          return (
            <Stack gap="sm">
              {read.latest.length === 0 ? (
                <Text size="sm" c="dimmed">
                  Not checked yet: “Check now”, a template’s pre-flight or the periodic check
                  (STEWARD_HEALTH_INTERVAL_SECONDS) measures it.
                </Text>
              ) : (
                read.latest.map((latest) => (
                  <Card key={latest.inventory_id} withBorder padding="sm">
                    <Group justify="space-between" wrap="wrap" gap="xs">
                      <Group gap="xs" wrap="wrap">
                        <Badge color={statusColor(latest.status)} variant="light">
                          {statusLabel(latest.status)}
                        </Badge>
                        <Text size="sm">in {latest.inventory}</Text>
                      </Group>
                      <Text size="xs" c="dimmed">
                        checked {formatDateTime(latest.checked_at)}
                      </Text>
                    </Group>
                    <Group gap="lg" mt={4} wrap="wrap">
                      <Text size="sm">TCP connect {formatMs(latest.tcp_ms)}</Text>
                      <Text size="sm">SSH banner {formatMs(latest.banner_ms)}</Text>
                    </Group>
                    {latest.reason && (
                      <Text size="xs" c="dimmed" mt={4} style={{ overflowWrap: "anywhere" }}>
                        {latest.reason}
                      </Text>
                    )}
                  </Card>
                ))
              )}
              {measured && <HealthChart history={read.history} />}
              {spells.length > 0 ? (
                <Table.ScrollContainer minWidth={420}>
                  <Table aria-label="Unreachable history" striped>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Unreachable</Table.Th>
                        <Table.Th>Inventory</Table.Th>
                        <Table.Th>Checks</Table.Th>
                        <Table.Th>Why</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {spells.slice(0, 20).map((spell) => (
                        <Table.Tr key={`${spell.inventory}-${spell.to}`}>
                          <Table.Td>
                            {spell.from === spell.to
                              ? formatDateTime(spell.from)
                              : `${formatDateTime(spell.from)} – ${formatDateTime(spell.to)}`}
                          </Table.Td>
                          <Table.Td>{spell.inventory}</Table.Td>
                          <Table.Td>{plural(spell.checks, "check")}</Table.Td>
                          <Table.Td style={{ overflowWrap: "anywhere" }}>{spell.reason}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              ) : (
                read.history.length > 0 && (
                  <Text size="sm" c="dimmed">
                    Not unreachable in this period.
                  </Text>
                )
              )}
            </Stack>
          );
        }}
      </QueryState>
    </Stack>
  );
}
