import { Text, useComputedColorScheme } from "@mantine/core";
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import {
  type ChartSpec,
  RUN_COLORS,
  chartColors,
  formatValue,
} from "@/features/metrics/lib/charts";

interface CompareChartProps {
  title: string;
  unit: ChartSpec["unit"];
  /** seconds from the anchor task, then one column per run */
  data: (number | null | undefined)[][];
  labels: readonly string[];
  syncKey: string;
}

const HEIGHT = 130;

/** One metric of several runs, each its own line, on seconds from a task they share. */
export function CompareChart({ title, unit, data, labels, syncKey }: CompareChartProps) {
  const dark = useComputedColorScheme("light") === "dark";
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const palette = chartColors(dark);
    const created = new uPlot(
      {
        width: Math.max(200, element.clientWidth),
        height: HEIGHT,
        cursor: { sync: { key: syncKey }, drag: { x: false, y: false } },
        scales: { x: { time: false } },
        axes: [
          {
            stroke: palette.axis,
            grid: { stroke: palette.grid },
            ticks: { stroke: palette.grid },
            values: (_u, ticks) => ticks.map((v) => `${v}s`),
          },
          {
            stroke: palette.axis,
            grid: { stroke: palette.grid },
            ticks: { stroke: palette.grid },
            size: 70,
            values: (_u, ticks) => ticks.map((v) => formatValue(v, unit)),
          },
        ],
        series: [
          { label: "s", value: (_u: uPlot, v: number | null) => (v == null ? "–" : `${v}s`) },
          ...labels.map((label, i) => ({
            label,
            stroke: RUN_COLORS[i % RUN_COLORS.length],
            width: 1.5,
            spanGaps: false,
            value: (_u: uPlot, v: number | null) => formatValue(v, unit),
          })),
        ],
      },
      data as uPlot.AlignedData,
      element,
    );
    const resize = new ResizeObserver(() =>
      created.setSize({ width: Math.max(200, element.clientWidth), height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      created.destroy();
    };
  }, [dark, data, labels, unit, syncKey]);

  return (
    <div>
      <Text size="xs" fw={600}>
        {title}
      </Text>
      <div ref={box} role="img" aria-label={`${title} of the compared runs`} />
    </div>
  );
}
