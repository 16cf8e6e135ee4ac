import { Badge, Button, Card, Group, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { type Column, ColumnsTable } from "@/components/columns-table";
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

const SPELL_COLUMNS: readonly Column<ReturnType<typeof unreachableSpells>[number]>[] = [
  {
    key: "when",
    header: "Unreachable",
    cell: (spell) =>
      spell.from === spell.to
        ? formatDateTime(spell.from)
        : `${formatDateTime(spell.from)} – ${formatDateTime(spell.to)}`,
  },
  { key: "inventory", header: "Inventory", cell: (spell) => spell.inventory },
  { key: "checks", header: "Checks", cell: (spell) => plural(spell.checks, "check") },
  {
    key: "why",
    header: "Why",
    td: { style: { overflowWrap: "anywhere" } },
    cell: (spell) => spell.reason,
  },
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
                <ColumnsTable
                  label="Unreachable history"
                  striped
                  minWidth={420}
                  columns={SPELL_COLUMNS}
                  rows={spells.slice(0, 20)}
                  rowKey={(spell) => `${spell.inventory}-${spell.to}`}
                />
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
