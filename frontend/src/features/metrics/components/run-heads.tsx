import type { ReactNode } from "react";
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text } from "@mantine/core";
import { Link } from "react-router";
import type { ComparedRun } from "@/features/metrics/api/get-runs-compared";
import { formatDelta, formatSeconds, runColor } from "@/features/metrics/lib/compare";
import { paths } from "@/lib/paths";
import { formatDateTime } from "@/lib/format";

/** One card per compared run: its color, number, label, template, status, when and how
 * long. */
export function RunHeads({
  runs,
  durations,
  status,
  label,
}: {
  runs: readonly ComparedRun[];
  durations: readonly (number | null)[];
  /** the run status badge (of the runs feature, composed by the page) */
  status: (run: ComparedRun) => ReactNode;
  /** the run's label, and its editor for who may set it (of the runs feature) */
  label?: (run: ComparedRun) => ReactNode;
}) {
  const base = durations[0] ?? null;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: runs.length }} spacing="xs">
      {runs.map((run, i) => {
        const seconds = durations[i] ?? null;
        const delta = i > 0 && base !== null && seconds !== null ? seconds - base : null;
        return (
          <Paper
            key={run.id}
            withBorder
            p="xs"
            style={{ borderLeft: `4px solid ${runColor(i)}` }}
            aria-label={`Run ${run.id}`}
          >
            <Stack gap={2}>
              <Group gap="xs" justify="space-between" wrap="nowrap">
                <Anchor component={Link} to={paths.run(run.project_id, run.id)} fw={600}>
                  #{run.id}
                </Anchor>
                <Group gap={4} wrap="nowrap">
                  {i === 0 && (
                    <Badge variant="outline" size="sm" color="gray">
                      baseline
                    </Badge>
                  )}
                  {status(run)}
                </Group>
              </Group>
              {label?.(run)}
              {run.template_id !== null ? (
                <Anchor
                  component={Link}
                  to={paths.template(run.project_id, run.template_id)}
                  size="sm"
                  truncate
                >
                  {run.template_name}
                </Anchor>
              ) : (
                <Text size="sm" truncate>
                  {run.template_name || "(deleted template)"}
                </Text>
              )}
              <Text size="xs" c="dimmed">
                {formatDateTime(run.started_at ?? run.created_at)} · {formatSeconds(seconds)}
                {delta !== null && ` · ${formatDelta(delta, base ? (delta / base) * 100 : null)}`}
              </Text>
            </Stack>
          </Paper>
        );
      })}
    </SimpleGrid>
  );
}
