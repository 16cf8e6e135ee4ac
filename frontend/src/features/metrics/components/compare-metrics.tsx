import { Alert, Group, Loader, Select, Stack, Text, Title } from "@mantine/core";
import { useMemo, useState } from "react";
import type { ComparedRun, ComparedTask } from "@/features/metrics/api/get-runs-compared";
import { useComparedMetrics } from "@/features/metrics/api/get-compared-metrics";
import { taskLabel } from "@/features/metrics/components/task-durations";
import { taskKey, runColor } from "@/features/metrics/lib/compare";
import type { MetricGap, MetricLane } from "@/features/metrics/api/get-run-metrics";
import { type Highlight, MetricChart } from "@/features/metrics/components/metric-chart";
import { type ChartSpec, chartsOf } from "@/features/metrics/lib/charts";

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

/** CPU, memory, disk and network of one machine in each run, a chart per run under each
 * metric, all on one axis of seconds: from each run's start, or from the start of a task
 * they share (aligned by task). The task hovered in the table or the timeline is shaded in
 * every run at its own interval. */
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
  const highlights: (Highlight | null)[] = useMemo(
    () =>
      shifted.map(({ start, zero }, i) => {
        const cell = hoveredTask?.cells[i];
        if (!cell || cell.start === null || cell.end === null || Number.isNaN(start)) return null;
        return { start: start + cell.start * 1000 - zero, end: start + cell.end * 1000 - zero };
      }),
    [shifted, hoveredTask],
  );
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
  // one spec object per run and chart, kept while the charts stay (a new one redraws)
  const titled = useMemo(
    () =>
      specs.map((spec) => ({
        spec,
        perRun: runs.map((run, i) => ({
          ...spec,
          title: `#${run.id}${i === 0 ? " (baseline)" : ""}`,
        })),
      })),
    [specs, runs],
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
      {titled.length === 0 && (
        <Text c="dimmed">No metrics were recorded for this machine in these runs.</Text>
      )}
      {titled.map(({ spec, perRun }) => (
        <Stack key={spec.id} gap={2}>
          <Title order={5}>{spec.title}</Title>
          {perRun.map((runSpec, i) => {
            const s = shifted[i];
            const run = runs[i];
            if (!s || !run) return null;
            return (
              <div key={run.id} style={{ borderLeft: `3px solid ${runColor(i)}`, paddingLeft: 6 }}>
                {s.lane ? (
                  <MetricChart
                    spec={runSpec}
                    times={s.times}
                    series={s.lane.series}
                    gaps={s.gaps}
                    range={range}
                    highlight={highlights[i] ?? null}
                    syncKey={`compare-${runIds.join("-")}`}
                    relative
                    label={`${spec.title} of run ${run.id}`}
                  />
                ) : (
                  <Text size="xs" c="dimmed">
                    #{run.id}: no samples of this machine
                  </Text>
                )}
              </div>
            );
          })}
        </Stack>
      ))}
    </Stack>
  );
}
