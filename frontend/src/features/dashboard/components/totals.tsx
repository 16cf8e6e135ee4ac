import { Paper, SimpleGrid, Text } from "@mantine/core";
import type { Schemas } from "@/api/client";
import { formatRate } from "@/lib/format";

function Stat({ label, value, color }: { label: string; value: string; color?: string }) {
  return (
    <Paper withBorder p="sm" radius="md" role="group" aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} c={color}>
        {value}
      </Text>
    </Paper>
  );
}

/** The window's figures at a glance. */
export function Totals({ totals, days }: { totals: Schemas["Totals"]; days: number }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="sm">
      <Stat label={`Runs, ${days} days`} value={totals.runs.toLocaleString()} />
      <Stat label="Success rate" value={formatRate(totals.success_rate)} />
      <Stat
        label="Failing templates"
        value={String(totals.failing_templates)}
        color={totals.failing_templates ? "red" : undefined}
      />
      <Stat label="Running now" value={String(totals.running)} />
      <Stat label="Queued now" value={String(totals.queued)} />
    </SimpleGrid>
  );
}
