import {
  Alert,
  Anchor,
  Group,
  Loader,
  Select,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import {
  type MetricLane,
  exportUrl,
  useRunMetrics,
  useRunTasks,
} from "@/features/metrics/api/get-run-metrics";
import { type Highlight, MetricChart } from "@/features/metrics/components/metric-chart";
import { type TaskBar, chartsOf, taskBars } from "@/features/metrics/lib/charts";
import classes from "@/features/metrics/components/run-metrics.module.css";
import { paths } from "@/lib/paths";

interface RunMetricsProps {
  projectId: number;
  runId: number;
  /** changes while the run goes on: the charts are fetched again */
  version: string;
}

const laneKey = (lane: MetricLane) => `${lane.kind}:${lane.host}`;
const laneLabel = (lane: MetricLane) =>
  lane.kind === "controller" ? `controller (${lane.host})` : lane.host;
const clock = (ms: number) => new Date(ms).toLocaleTimeString();

function TaskStrip(props: {
  tasks: readonly TaskBar[];
  range: { start: number; end: number };
  active: number | null;
  onHover: (task: TaskBar | null) => void;
}) {
  const span = Math.max(1, props.range.end - props.range.start);
  return (
    <div className={classes.strip} aria-label="Tasks on the time axis" role="list">
      {props.tasks.map((task) => (
        <button
          key={task.counter}
          type="button"
          role="listitem"
          className={classes.task}
          data-status={task.status}
          data-active={props.active === task.counter || undefined}
          style={{
            left: `${((task.start - props.range.start) / span) * 100}%`,
            width: `${((task.end - task.start) / span) * 100}%`,
          }}
          title={`${task.task} (${task.host}, ${task.status})`}
          aria-label={`${task.task} on ${task.host}, ${task.status}`}
          onMouseEnter={() => props.onHover(task)}
          onMouseLeave={() => props.onHover(null)}
          onFocus={() => props.onHover(task)}
          onBlur={() => props.onHover(null)}
        />
      ))}
    </div>
  );
}

/** CPU, memory, disk and network of the controller and of each sampled host while the run
 * executed, on the time axis of its tasks: hovering a task shades its interval. */
export function RunMetrics({ projectId, runId, version }: RunMetricsProps) {
  const metrics = useRunMetrics(projectId, runId, version);
  const tasks = useRunTasks(projectId, runId, version);
  const [chosen, setChosen] = useState<string | null>(null);
  const [hovered, setHovered] = useState<TaskBar | null>(null);
  const lanes = useMemo(() => metrics.data?.lanes ?? [], [metrics.data]);
  const lane = lanes.find((l) => laneKey(l) === chosen) ?? lanes[0];
  const bars = useMemo(
    () => taskBars(tasks.data ?? [], lane?.kind === "host" ? lane.host : undefined),
    [tasks.data, lane],
  );
  const range = useMemo(() => {
    const starts = [metrics.data?.start, ...bars.map((b) => b.start)].filter(
      (v): v is number => typeof v === "number",
    );
    const ends = [metrics.data?.end, ...bars.map((b) => b.end)].filter(
      (v): v is number => typeof v === "number",
    );
    return { start: Math.min(...starts), end: Math.max(...ends) };
  }, [metrics.data, bars]);

  if (metrics.error) {
    return (
      <Alert color="red" title="Could not load the host metrics">
        {metrics.error.message}
      </Alert>
    );
  }
  if (!metrics.data) return <Loader size="sm" aria-label="Loading host metrics" />;
  if (!lane) return <Text c="dimmed">No host metrics were recorded for this run yet.</Text>;

  const highlight: Highlight | null = hovered ? { start: hovered.start, end: hovered.end } : null;
  const choices = lanes.map((l) => ({ value: laneKey(l), label: laneLabel(l) }));
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <Title order={4}>Host metrics</Title>
        <Group gap="sm">
          <Anchor size="sm" component={Link} to={paths.compareRuns(projectId, [runId])}>
            Compare with other runs
          </Anchor>
          <Anchor size="sm" href={exportUrl(projectId, runId, "csv")} download>
            CSV
          </Anchor>
          <Anchor size="sm" href={exportUrl(projectId, runId, "json")} download>
            JSON
          </Anchor>
        </Group>
      </Group>
      {choices.length > 1 &&
        (choices.length <= 4 ? (
          <SegmentedControl
            size="xs"
            data={choices}
            value={laneKey(lane)}
            onChange={setChosen}
            aria-label="Machine"
          />
        ) : (
          <Select
            size="xs"
            data={choices}
            value={laneKey(lane)}
            onChange={setChosen}
            searchable
            aria-label="Machine"
          />
        ))}
      <TaskStrip
        tasks={bars}
        range={range}
        active={hovered?.counter ?? null}
        onHover={setHovered}
      />
      <Text size="xs" c="dimmed" aria-live="polite">
        {hovered
          ? `${hovered.task} on ${hovered.host}: ${clock(hovered.start)} – ${clock(hovered.end)}`
          : "Hover a task to shade its interval on the charts."}
      </Text>
      {chartsOf(lane.series).map((spec) => (
        <MetricChart
          key={`${laneKey(lane)}:${spec.id}`}
          spec={spec}
          times={lane.times}
          series={lane.series}
          gaps={lane.gaps}
          range={range}
          highlight={highlight}
          syncKey={`run-${runId}`}
        />
      ))}
      {lane.gaps.length > 0 && (
        <Stack gap={2} aria-label="Gaps">
          {lane.gaps.map((gap) => (
            <Text key={gap.start} size="xs" c="dimmed">
              No samples {clock(gap.start)} – {clock(gap.end)}: {gap.reason}
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
