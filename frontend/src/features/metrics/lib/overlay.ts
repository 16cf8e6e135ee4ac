/** Compared runs overlaid: one chart per metric, one line per run, on one axis of seconds. */
import { type ChartSpec, type SeriesSpec } from "@/features/metrics/lib/charts";
import { runColor } from "@/features/metrics/lib/compare";

/** A value per time: `undefined` where the run has no sample at that time (the line goes on
 * to its next sample), `null` where its sample is missing (a break, never a zero). */
export type OverlayValues = (number | null | undefined)[];

export interface RunSamples {
  /** ms from the run's zero (its start, or the start of the task the runs are aligned by) */
  times: readonly number[];
  /** the series' values at those times; undefined: the run has no such series */
  values: readonly (number | null)[] | undefined;
}

export interface Overlay {
  /** every run's sample times, once each, in order (ms from each run's zero) */
  times: number[];
  /** per run, its values at `times` */
  values: OverlayValues[];
}

/** The runs' samples of one series on one shared axis: runs are sampled at their own
 * moments, so the axis is the union of their times and each run has a value only at its
 * own. A run without the series has no value anywhere. */
export function overlay(runs: readonly RunSamples[]): Overlay {
  const times = [...new Set(runs.flatMap((run) => (run.values ? run.times : [])))].sort(
    (a, b) => a - b,
  );
  const index = new Map(times.map((time, i) => [time, i]));
  const values = runs.map((run) => {
    const line: OverlayValues = times.map(() => undefined);
    if (!run.values) return line;
    run.times.forEach((time, i) => {
      const at = index.get(time);
      if (at !== undefined) line[at] = run.values?.[i] ?? null;
    });
    return line;
  });
  return { times, values };
}

/** How a compared run is named in a legend: "#12 baseline · TDE on". */
export function runLegend(run: { id: number; label?: string }, index: number): string {
  const parts = [`#${run.id}`];
  if (index === 0) parts.push("baseline");
  const name = parts.join(" ");
  return run.label ? `${name} · ${run.label}` : name;
}

/** The series a metric's chart may overlay (a reference line such as the memory's total is
 * not a measure to compare). */
export function measures(spec: ChartSpec): SeriesSpec[] {
  return spec.series.filter((s) => s.key !== "mem.total");
}

/** A run's values of `measure` from its lane's series: as a percentage of `percentOf` when the
 * measure is drawn so (memory: used of the total, null where the total is unknown); undefined
 * when the run has no such series. */
export function measureValues(
  series: Readonly<Record<string, readonly (number | null)[]>> | undefined,
  measure: SeriesSpec,
): (number | null)[] | undefined {
  const values = series?.[measure.key];
  if (values === undefined) return undefined;
  if (measure.percentOf === undefined) return [...values];
  const whole = series?.[measure.percentOf];
  return values.map((value, i) => {
    const total = whole?.[i] ?? null;
    return value === null || total === null || total <= 0 ? null : (value / total) * 100;
  });
}

/** The chart of one series of `spec` with a line per run, in the runs' colors. */
export function overlaySpec(
  spec: ChartSpec,
  measure: SeriesSpec,
  runs: readonly { id: number; label?: string }[],
): ChartSpec {
  return {
    ...spec,
    title: spec.series.length > 1 ? `${spec.title}: ${measure.label}` : spec.title,
    series: runs.map((run, i) => ({
      key: `run-${run.id}`,
      label: runLegend(run, i),
      color: runColor(i),
    })),
  };
}
