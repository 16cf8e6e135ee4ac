import { useComputedColorScheme } from "@mantine/core";
import { type DependencyList, type RefObject, useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/** Axis and grid colors of a chart in the light or dark scheme. */
export interface ChartScheme {
  dark: boolean;
  axis: string;
  grid: string;
}

/** An axis in the scheme's colors, with whatever else it sets (ticks' labels, size). */
export function schemeAxis(scheme: ChartScheme, axis: uPlot.Axis = {}): uPlot.Axis {
  return {
    stroke: scheme.axis,
    grid: { stroke: scheme.grid },
    ticks: { stroke: scheme.grid },
    ...axis,
  };
}

/** What a chart draws: uPlot's options but its size, and its data. */
export interface ChartDrawing {
  options: Omit<uPlot.Options, "width" | "height">;
  data: uPlot.AlignedData;
}

/** A uPlot chart (a canvas) in the returned box: as wide as the box (at least 200 px),
 * `height` high, drawn again when the color scheme or `deps` change; `plot` holds the chart
 * while it shows. */
export function useUplot(
  height: number,
  draw: (scheme: ChartScheme) => ChartDrawing,
  deps: DependencyList,
): { box: RefObject<HTMLDivElement | null>; plot: RefObject<uPlot | null> } {
  const dark = useComputedColorScheme("light") === "dark";
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const { options, data } = draw({
      dark,
      axis: dark ? "#c1c2c5" : "#495057",
      grid: dark ? "rgba(255,255,255,0.08)" : "rgba(0,0,0,0.07)",
    });
    const width = () => Math.max(200, element.clientWidth);
    const created = new uPlot({ ...options, width: width(), height }, data, element);
    plot.current = created;
    const resize = new ResizeObserver(() => created.setSize({ width: width(), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      created.destroy();
      plot.current = null;
    };
    // `draw` is new each render; what it reads is in `deps`
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dark, height, ...deps]);
  return { box, plot };
}
