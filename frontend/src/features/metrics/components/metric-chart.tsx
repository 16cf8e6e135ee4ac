import { Text } from "@mantine/core";
import { useEffect, useRef } from "react";
import type uPlot from "uplot";
import {
  type ChartSpec,
  chartColors,
  chartData,
  formatValue,
  legendValue,
} from "@/features/metrics/lib/charts";
import { schemeAxis, useUplot } from "@/hooks/use-uplot";
import type { MetricGap } from "@/features/metrics/api/get-run-metrics";

export interface Highlight {
  start: number;
  end: number;
}

interface MetricChartProps {
  spec: ChartSpec;
  times: readonly number[];
  series: Record<string, readonly (number | null | undefined)[]>;
  gaps: readonly MetricGap[];
  /** epoch ms: every chart of a run shares the axis, so tasks and charts line up */
  range: { start: number; end: number };
  /** a task's interval to shade (hovering a task) */
  highlight: Highlight | null;
  /** charts with the same key move their cursors together */
  syncKey: string;
  /** times and range are milliseconds from a zero (compared runs), shown as seconds */
  relative?: boolean;
  /** the figure's accessible name (default: "<title> over the run") */
  label?: string;
  /** pixels of the plot (default 110) */
  height?: number;
}

const HEIGHT = 110;

/** One chart of a lane (uPlot on a canvas): the series of `spec`, gaps shaded grey, the
 * hovered task's interval shaded yellow. */
export function MetricChart({
  spec,
  times,
  series,
  gaps,
  range,
  highlight,
  syncKey,
  relative = false,
  label,
  height = HEIGHT,
}: MetricChartProps) {
  const shaded = useRef<{ highlight: Highlight | null; gaps: readonly MetricGap[] }>({
    highlight,
    gaps,
  });
  const { box, plot } = useUplot(
    height,
    (scheme) => {
      const palette = chartColors(scheme.dark);
      const shade = (u: uPlot, from: number, to: number, fill: string) => {
        const left = u.valToPos(from / 1000, "x", true);
        const right = u.valToPos(to / 1000, "x", true);
        u.ctx.fillStyle = fill;
        u.ctx.fillRect(left, u.bbox.top, Math.max(1, right - left), u.bbox.height);
      };
      return {
        options: {
          cursor: { sync: { key: syncKey }, drag: { x: false, y: false } },
          legend: { show: true, live: true },
          scales: {
            x: { time: !relative, range: [range.start / 1000, range.end / 1000] },
            ...(spec.range ? { y: { range: spec.range } } : {}),
          },
          axes: [
            schemeAxis(
              scheme,
              relative ? { values: (_u: uPlot, ticks: number[]) => ticks.map((v) => `${v}s`) } : {},
            ),
            schemeAxis(scheme, {
              size: 70,
              values: (_u, ticks) => ticks.map((v) => formatValue(v, spec.unit)),
            }),
          ],
          series: [
            relative ? { value: (_u: uPlot, v: number | null) => (v == null ? "–" : `${v}s`) } : {},
            ...spec.series.map((s) => ({
              label: s.label,
              stroke: s.color,
              width: 1.5,
              spanGaps: false, // a missing sample is a break in the line, never a zero
              value: (_u: uPlot, v: number | null, _s: number, index: number | null) =>
                legendValue(spec, s, series, index, v),
            })),
          ],
          hooks: {
            drawClear: [
              (u) => {
                for (const gap of shaded.current.gaps) shade(u, gap.start, gap.end, palette.gap);
                const current = shaded.current.highlight;
                if (current) shade(u, current.start, current.end, palette.highlight);
              },
            ],
          },
        },
        data: chartData(times, series, spec) as uPlot.AlignedData,
      };
    },
    [spec, times, series, range.start, range.end, syncKey, relative],
  );

  useEffect(() => {
    shaded.current = { highlight, gaps };
    plot.current?.redraw(false);
  }, [highlight, gaps, plot]);

  return (
    <div>
      <Text size="xs" fw={600}>
        {spec.title}
        {spec.note && (
          <Text span size="xs" c="dimmed" fw={400}>
            {" "}
            ({spec.note})
          </Text>
        )}
      </Text>
      <div ref={box} role="img" aria-label={label ?? `${spec.title} over the run`} />
    </div>
  );
}
