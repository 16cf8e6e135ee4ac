import { Alert, Group, Loader, SegmentedControl, Select, Stack, Text } from "@mantine/core";
import { useMemo, useState } from "react";
import type { ComparedRun, ComparedTask } from "@/features/metrics/api/get-runs-compared";
import { useComparedMetrics } from "@/features/metrics/api/get-compared-metrics";
import { taskLabel } from "@/features/metrics/components/task-durations";
import { taskKey } from "@/features/metrics/lib/compare";
import type { MetricGap, MetricLane } from "@/features/metrics/api/get-run-metrics";
import { type Highlight, MetricChart } from "@/features/metrics/components/metric-chart";
import { type ChartSpec, chartsOf } from "@/features/metrics/lib/charts";
import { measureValues, measures, overlay, overlaySpec } from "@/features/metrics/lib/overlay";

interface CompareMetricsProps {
  projectId: number;
  runs: readonly ComparedRun[];
  tasks: readonly ComparedTask[];
  hovered: string | null;
}

const CONTROLLER = "@controller";
const RUN_START = "@start";
const ms = (iso: string | null) => (iso ? Date.parse(iso) : NaN);

interface Shifted {
  lane: MetricLane | undefined;
  /** ms from the run's zero */
  times: number[];
  gaps: MetricGap[];
  /** epoch ms of the run's zero (its start, or the anchor task's start in it) */
  zero: number;
  /** epoch ms of the run's start (NaN: not started) */
  start: number;
}

/** CPU, memory, disk and network of one machine in each run, overlaid: one chart per metric
 * with one line per run (its color, number and label), on one axis of seconds: from each
 * run's start, or from the start of a task they share (aligned by task). The task hovered in
 * the table or the timeline is shaded from its earliest start to its latest end over the
 * runs. */
export function CompareMetrics({ projectId, runs, tasks, hovered }: CompareMetricsProps) {
  const runIds = useMemo(() => runs.map((r) => r.id), [runs]);
  const metrics = useComparedMetrics(projectId, runIds);
  const [machine, setMachine] = useState(CONTROLLER);
  const [anchor, setAnchor] = useState(RUN_START);
  const failed = metrics.error;
  const loaded = metrics.data.every(Boolean);

  const hosts = useMemo(
    () =>
      [
        ...new Set(
          metrics.data.flatMap((d) =>
            (d?.lanes ?? []).filter((l) => l.kind === "host").map((l) => l.host),
          ),
        ),
      ].sort(),
    [metrics.data],
  );
  const shared = useMemo(
    () => tasks.filter((t) => t.cells.every((c) => c?.start != null)),
    [tasks],
  );
  const anchorTask = shared.find((t) => taskKey(t) === anchor);
  const hoveredTask = hovered ? tasks.find((t) => taskKey(t) === hovered) : undefined;

  const shifted: Shifted[] = useMemo(
    () =>
      runs.map((run, i) => {
        const data = metrics.data[i];
        const lane = data?.lanes.find((l) =>
          machine === CONTROLLER
            ? l.kind === "controller"
            : l.kind === "host" && l.host === machine,
        );
        const start = ms(run.started_at);
        const offset = anchorTask?.cells[i]?.start ?? 0;
        const zero = (Number.isNaN(start) ? (data?.start ?? 0) : start) + offset * 1000;
        const times = (lane?.times ?? []).map((t) => t - zero);
        const gaps = (lane?.gaps ?? []).map((g) => ({
          ...g,
          start: g.start - zero,
          end: g.end - zero,
        }));
        return { lane, times, gaps, zero, start };
      }),
    [runs, machine, anchorTask, metrics.data],
  );
  const highlight: Highlight | null = useMemo(() => {
    const spans = shifted.flatMap(({ start, zero }, i) => {
      const cell = hoveredTask?.cells[i];
      if (!cell || cell.start === null || cell.end === null || Number.isNaN(start)) return [];
      return [{ start: start + cell.start * 1000 - zero, end: start + cell.end * 1000 - zero }];
    });
    if (spans.length === 0) return null;
    return {
      start: Math.min(...spans.map((s) => s.start)),
      end: Math.max(...spans.map((s) => s.end)),
    };
  }, [shifted, hoveredTask]);
  const range = useMemo(() => {
    const starts = shifted.map((s) => s.times[0] ?? 0);
    const ends = runs.map((run, i) => {
      const end = ms(run.finished_at);
      const last = shifted[i]?.times.at(-1) ?? 0;
      return Number.isNaN(end) ? last : Math.max(last, end - (shifted[i]?.zero ?? 0));
    });
    return { start: Math.min(0, ...starts), end: Math.max(1000, ...ends) };
  }, [shifted, runs]);
  const specs: ChartSpec[] = useMemo(
    () => chartsOf(Object.assign({}, ...shifted.map((s) => s.lane?.series ?? {}))),
    [shifted],
  );

  if (failed) {
    return (
      <Alert color="red" title="Could not load the host metrics">
        {failed.message}
      </Alert>
    );
  }
  if (!loaded) return <Loader size="sm" aria-label="Loading host metrics" />;
  return (
    <Stack gap="xs">
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
          label="Seconds from"
          size="xs"
          data={[
            { value: RUN_START, label: "each run's start" },
            ...shared.map((t) => ({ value: taskKey(t), label: `the start of ${taskLabel(t)}` })),
          ]}
          value={anchorTask ? anchor : RUN_START}
          onChange={(value) => setAnchor(value ?? RUN_START)}
          allowDeselect={false}
          searchable
        />
      </Group>
      <Text size="xs" c="dimmed" aria-live="polite">
        {hoveredTask
          ? `Shaded: ${taskLabel(hoveredTask)} in each run`
          : "Hover a task in the table or the timeline to shade it in every run."}
      </Text>
      {specs.length === 0 && (
        <Text c="dimmed">No metrics were recorded for this machine in these runs.</Text>
      )}
      {specs.map((spec) => (
        <OverlaidChart
          key={spec.id}
          spec={spec}
          runs={runs}
          shifted={shifted}
          range={range}
          highlight={highlight}
          syncKey={`compare-${runIds.join("-")}`}
        />
      ))}
    </Stack>
  );
}

/** One metric of every run in one chart: a line per run of the measure picked (CPU user,
 * system or iowait; disk read or write; …). */
function OverlaidChart({
  spec,
  runs,
  shifted,
  range,
  highlight,
  syncKey,
}: {
  spec: ChartSpec;
  runs: readonly ComparedRun[];
  shifted: readonly Shifted[];
  range: { start: number; end: number };
  highlight: Highlight | null;
  syncKey: string;
}) {
  const [picked, setPicked] = useState<string | null>(null);
  const drawn = useMemo(() => {
    const choices = measures(spec);
    const measure = choices.find((s) => s.key === picked) ?? choices[0];
    if (!measure) return null;
    const { times, values } = overlay(
      shifted.map((s) => ({ times: s.times, values: measureValues(s.lane?.series, measure) })),
    );
    const chart = overlaySpec(spec, measure, runs);
    const series = Object.fromEntries(chart.series.map((line, i) => [line.key, values[i] ?? []]));
    return { choices, measure, chart, times, series };
  }, [spec, picked, shifted, runs]);
  if (!drawn) return null;
  const { choices, measure } = drawn;
  const missing = runs.filter((_, i) => !shifted[i]?.lane?.series[measure.key]);
  return (
    <Stack gap={2} component="figure" m={0} aria-label={`${spec.title} of the compared runs`}>
      {choices.length > 1 && (
        <SegmentedControl
          size="xs"
          data={choices.map((s) => ({ value: s.key, label: s.label }))}
          value={measure.key}
          onChange={setPicked}
          aria-label={`${spec.title}: which measure`}
          style={{ alignSelf: "flex-start" }}
        />
      )}
      <MetricChart
        spec={drawn.chart}
        times={drawn.times}
        series={drawn.series}
        gaps={[]}
        range={range}
        highlight={highlight}
        syncKey={syncKey}
        relative
        height={160}
        label={`${drawn.chart.title}, one line per run`}
      />
      {missing.length > 0 && (
        <Text size="xs" c="dimmed">
          No samples of this machine in {missing.map((run) => `#${run.id}`).join(", ")}
        </Text>
      )}
    </Stack>
  );
}
