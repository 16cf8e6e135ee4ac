import { Alert, Group, Loader, Select, Stack, Table, Text, Title } from "@mantine/core";
import { useMemo, useState } from "react";
import { type ComparedRun, useComparedRuns } from "@/features/metrics/api/get-compared-runs";
import { CompareChart } from "@/features/metrics/components/compare-chart";
import { type ChartSpec, RUN_COLORS } from "@/features/metrics/lib/charts";
import {
  aligned,
  commonTasks,
  summed,
  taskSeconds,
  taskStart,
} from "@/features/metrics/lib/compare";

interface CompareRunsMetricsProps {
  projectId: number;
  runIds: readonly number[];
}

const METRICS: { title: string; unit: ChartSpec["unit"]; keys: string[] }[] = [
  { title: "CPU busy (user + system)", unit: "%", keys: ["cpu.user", "cpu.system"] },
  { title: "Memory used", unit: "bytes", keys: ["mem.used"] },
  { title: "Disk (read + write)", unit: "bytes/s", keys: ["disk.read_bytes", "disk.write_bytes"] },
  { title: "Network (received + sent)", unit: "bytes/s", keys: ["net.rx_bytes", "net.tx_bytes"] },
  { title: "The run's processes (CPU)", unit: "%", keys: ["run.cpu"] },
];

const CONTROLLER = "@controller";
const label = (c: ComparedRun) => `#${c.run.id} ${c.run.template_name ?? ""}`.trim();

/** 2–4 runs side by side: how long each task took in each, and the metrics of one machine on
 * one axis of seconds from a task they all ran. */
export function CompareRunsMetrics({ projectId, runIds }: CompareRunsMetricsProps) {
  const [machine, setMachine] = useState<string>(CONTROLLER);
  const [anchor, setAnchor] = useState<string | null>(null);
  const host = machine === CONTROLLER ? null : machine;
  const results = useComparedRuns(projectId, runIds, host);
  const failed = results.find((r) => r.error);
  const runs = useMemo(
    () => results.map((r) => r.data).filter((d): d is ComparedRun => d !== undefined),
    [results],
  );
  const tasks = useMemo(() => commonTasks(runs.map((r) => r.tasks)), [runs]);
  const hosts = useMemo(() => {
    const [first, ...others] = runs.map((r) => new Set(r.tasks.map((t) => t.host)));
    return first ? [...first].filter((h) => others.every((s) => s.has(h))).sort() : [];
  }, [runs]);
  const chosen = anchor !== null && tasks.includes(anchor) ? anchor : (tasks[0] ?? null);
  const charts = useMemo(() => {
    if (runs.length !== runIds.length) return [];
    const tables = runs.map((r) => {
      const lane = r.metrics.lanes[0];
      const zero =
        (chosen ? taskStart(r.tasks, chosen) : null) ?? r.metrics.start ?? lane?.times[0] ?? 0;
      const x = (lane?.times ?? []).map((t) => Math.round((t - zero) / 100) / 10);
      return { lane, x };
    });
    const drawn = (keys: string[], series: Record<string, unknown> | undefined) =>
      series !== undefined && keys.some((key) => key in series);
    return METRICS.filter((m) => tables.some((t) => drawn(m.keys, t.lane?.series))).map(
      (metric) => ({
        ...metric,
        data: aligned(
          tables.map(({ lane, x }) => ({
            x,
            y: lane ? summed(lane.series, metric.keys, lane.times.length) : [],
          })),
        ),
      }),
    );
  }, [runs, runIds.length, chosen]);

  if (failed?.error) {
    return (
      <Alert color="red" title="Could not load the runs">
        {failed.error.message}
      </Alert>
    );
  }
  if (runs.length !== runIds.length) return <Loader size="sm" aria-label="Loading the runs" />;
  const labels = runs.map(label);
  return (
    <Stack gap="sm">
      <Group wrap="wrap" align="end">
        <Select
          label="Machine"
          size="xs"
          data={[{ value: CONTROLLER, label: "controller" }, ...hosts]}
          value={machine}
          onChange={(value) => setMachine(value ?? CONTROLLER)}
          allowDeselect={false}
        />
        <Select
          label="Aligned at the start of"
          size="xs"
          data={tasks}
          value={chosen}
          onChange={setAnchor}
          placeholder="the runs' first samples"
          searchable
        />
      </Group>
      <Table.ScrollContainer minWidth={360}>
        <Table aria-label="Seconds per task" verticalSpacing={4} striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Task</Table.Th>
              {labels.map((name, i) => (
                <Table.Th key={name} ta="right" c={RUN_COLORS[i % RUN_COLORS.length]}>
                  {name}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tasks.map((name) => (
              <Table.Tr key={name} fw={name === chosen ? 700 : undefined}>
                <Table.Td>{name}</Table.Td>
                {runs.map((r) => (
                  <Table.Td key={r.run.id} ta="right">
                    {taskSeconds(r.tasks, name)?.toFixed(1) ?? "–"} s
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {tasks.length === 0 && <Text c="dimmed">These runs have no task in common.</Text>}
      <Title order={4}>Host metrics</Title>
      {charts.length === 0 && <Text c="dimmed">No metrics were recorded for this machine.</Text>}
      {charts.map((chart) => (
        <CompareChart
          key={chart.title}
          title={chart.title}
          unit={chart.unit}
          data={chart.data}
          labels={labels}
          syncKey={`compare-${runIds.join("-")}`}
        />
      ))}
    </Stack>
  );
}
