import {
  Alert,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { useMemo } from "react";
import type uPlot from "uplot";
import { schemeAxis, useUplot } from "@/hooks/use-uplot";
import { formatRate } from "@/lib/format";
import { type TemplateStats, useTemplateStats } from "@/features/templates/api/get-template-stats";
import {
  STATUS_COLORS,
  TASK_COLORS,
  durationColumns,
  rateText,
} from "@/features/templates/lib/template-stats";

export const LAST_CHOICES = [20, 50, 100, 200] as const;
const HEIGHT = 170;

const seconds = (v: number | null | undefined) => {
  if (v === null || v === undefined) return "–";
  return v < 60 ? `${v.toFixed(1)} s` : `${Math.floor(v / 60)} min ${Math.round(v % 60)} s`;
};

interface ChartProps {
  /** the heading above it */
  title: string;
  /** its accessible name */
  label: string;
  data: (number | null)[][];
  series: uPlot.Series[];
  /** the run behind each x position */
  runIds: readonly number[];
  /** what each color is, below it */
  legend: { label: string; color: string }[];
}

/** A uPlot chart over runs (x: their position, labeled #id), dark-aware, as wide as its box,
 * under its heading and over its legend. */
function RunsChart({ title, label, data, series, runIds, legend }: ChartProps) {
  const { box } = useUplot(
    HEIGHT,
    (scheme) => {
      const runLabel = (i: number) => (runIds[i] === undefined ? "" : `#${runIds[i]}`);
      return {
        options: {
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          scales: { x: { time: false, range: [-0.5, Math.max(0.5, runIds.length - 0.5)] } },
          axes: [
            schemeAxis(scheme, {
              incrs: [1, 2, 5, 10, 20, 50, 100],
              values: (_u, ticks) => ticks.map((i) => (Number.isInteger(i) ? runLabel(i) : "")),
            }),
            schemeAxis(scheme, { size: 64, values: (_u, ticks) => ticks.map((v) => seconds(v)) }),
          ],
          series: [{ value: (_u, i) => runLabel(i) }, ...series],
        },
        data: data as uPlot.AlignedData,
      };
    },
    [data, series, runIds],
  );
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      <div ref={box} role="img" aria-label={label} />
      <Legend items={legend} />
    </Stack>
  );
}

function Legend({ items }: { items: { label: string; color: string }[] }) {
  return (
    <Group gap="sm" wrap="wrap">
      {items.map((item) => (
        <Group key={item.label} gap={4} wrap="nowrap" maw="100%">
          <span
            aria-hidden
            style={{
              width: 10,
              height: 10,
              borderRadius: 5,
              background: item.color,
              flexShrink: 0,
            }}
          />
          <Text size="xs" truncate>
            {item.label}
          </Text>
        </Group>
      ))}
    </Group>
  );
}

function Rate({ title, rate }: { title: string; rate: TemplateStats["success_last"] }) {
  return (
    <Paper withBorder p="xs" aria-label={title}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {title}
      </Text>
      <Text size="xl" fw={700}>
        {formatRate(rate.rate)}
      </Text>
      <Text size="xs" c="dimmed">
        {rateText(rate)}
      </Text>
    </Paper>
  );
}

function Durations({ stats }: { stats: TemplateStats }) {
  const chart = useMemo(() => {
    const { statuses, data } = durationColumns(stats.runs);
    const series: uPlot.Series[] = [
      { label: "duration", stroke: "rgba(134,142,150,0.6)", width: 1, points: { show: false } },
      ...statuses.map((status) => ({
        label: status.replace("_", " "),
        stroke: STATUS_COLORS[status],
        fill: STATUS_COLORS[status],
        paths: () => null,
        points: { show: true, size: 7, fill: STATUS_COLORS[status] },
        value: (_u: uPlot, v: number | null) => seconds(v),
      })),
    ];
    const legend = statuses.map((s) => ({ label: s.replace("_", " "), color: STATUS_COLORS[s] }));
    return { data, series, legend, runIds: stats.runs.map((r) => r.id) };
  }, [stats.runs]);
  return (
    <RunsChart
      title={`Duration of the last ${stats.runs.length} runs`}
      label="Duration of the last runs"
      data={chart.data}
      series={chart.series}
      runIds={chart.runIds}
      legend={chart.legend}
    />
  );
}

function SlowestTasks({ stats }: { stats: TemplateStats }) {
  const chart = useMemo(() => {
    const x = stats.trend_run_ids.map((_, i) => i);
    const data = [x, ...stats.slowest_tasks.map((t) => t.seconds)];
    const names = stats.slowest_tasks.map((t) =>
      [
        t.role ? `${t.role} : ${t.task}` : t.task,
        t.occurrence > 1 ? ` (#${t.occurrence})` : "",
      ].join(""),
    );
    const series: uPlot.Series[] = names.map((label, i) => ({
      label,
      stroke: TASK_COLORS[i % TASK_COLORS.length],
      width: 1.5,
      spanGaps: false,
      points: { show: true, size: 4 },
    }));
    const legend = names.map((label, i) => ({
      label: `${label} · mean ${seconds(stats.slowest_tasks[i]?.mean)}`,
      color: TASK_COLORS[i % TASK_COLORS.length] ?? "gray",
    }));
    return { data, series, legend };
  }, [stats.trend_run_ids, stats.slowest_tasks]);
  if (stats.slowest_tasks.length === 0) return null;
  return (
    <RunsChart
      title={`The 5 slowest tasks over the last ${stats.trend_run_ids.length} ended runs`}
      label="Slowest tasks over the last runs"
      data={chart.data}
      series={chart.series}
      runIds={stats.trend_run_ids}
      legend={chart.legend}
    />
  );
}

interface TemplateStatsPanelProps {
  projectId: number;
  templateId: number;
  last: number;
  onLast: (last: number) => void;
}

/** How the template's runs went: durations colored by status, success rates, slowest tasks. */
export function TemplateStatsPanel({
  projectId,
  templateId,
  last,
  onLast,
}: TemplateStatsPanelProps) {
  const stats = useTemplateStats(projectId, templateId, last);
  return (
    <Stack gap="sm" component="section" aria-label="Performance">
      <Group justify="space-between" wrap="wrap">
        <Title order={4}>Performance</Title>
        <SegmentedControl
          size="xs"
          aria-label="Last runs"
          value={String(last)}
          onChange={(value) => onLast(Number(value))}
          data={LAST_CHOICES.map((n) => ({ value: String(n), label: `last ${n}` }))}
        />
      </Group>
      {stats.isError && (
        <Alert color="red" title="Could not load the statistics">
          {stats.error.message}
        </Alert>
      )}
      {stats.isPending && <Loader size="sm" aria-label="Loading the statistics" />}
      {stats.data &&
        (stats.data.runs.length === 0 ? (
          <Text c="dimmed">No runs yet.</Text>
        ) : (
          <>
            <SimpleGrid cols={{ base: 2 }} spacing="xs" maw={520}>
              <Rate
                title={`Success, last ${stats.data.runs.length} runs`}
                rate={stats.data.success_last}
              />
              <Rate title="Success, last 30 days" rate={stats.data.success_30_days} />
            </SimpleGrid>
            <Durations stats={stats.data} />
            <SlowestTasks stats={stats.data} />
          </>
        ))}
    </Stack>
  );
}
