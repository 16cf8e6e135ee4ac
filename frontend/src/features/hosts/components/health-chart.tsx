import { Text, useComputedColorScheme } from "@mantine/core";
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { type HealthCheck, formatMs, latencySeries } from "@/features/hosts/lib/health";

const HEIGHT = 140;

/** The host's latency over time (uPlot, as the run metrics' charts): TCP connect and SSH
 * banner times; failed checks shaded red, a break in the lines. */
export function HealthChart({ history }: { history: readonly HealthCheck[] }) {
  const dark = useComputedColorScheme("light") === "dark";
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const { times, tcp, banner, failed } = latencySeries(history);
    const axis = dark ? "#c1c2c5" : "#495057";
    const grid = dark ? "rgba(255,255,255,0.08)" : "rgba(0,0,0,0.07)";
    const failedFill = dark ? "rgba(250,82,82,0.35)" : "rgba(250,82,82,0.3)";
    const value = (_u: uPlot, v: number | null) => formatMs(v);
    const created = new uPlot(
      {
        width: Math.max(200, element.clientWidth),
        height: HEIGHT,
        cursor: { drag: { x: false, y: false } },
        legend: { show: true, live: true },
        axes: [
          { stroke: axis, grid: { stroke: grid }, ticks: { stroke: grid } },
          {
            stroke: axis,
            grid: { stroke: grid },
            ticks: { stroke: grid },
            size: 60,
            values: (_u, ticks) => ticks.map((v) => `${v} ms`),
          },
        ],
        series: [
          {},
          { label: "TCP connect", stroke: "#228be6", width: 1.5, spanGaps: false, value },
          { label: "SSH banner", stroke: "#40c057", width: 1.5, spanGaps: false, value },
        ],
        hooks: {
          drawClear: [
            (u) => {
              u.ctx.fillStyle = failedFill;
              for (const at of failed) {
                const x = u.valToPos(at, "x", true);
                u.ctx.fillRect(x - 2, u.bbox.top, 4, u.bbox.height);
              }
            },
          ],
        },
      },
      [times, tcp, banner] as uPlot.AlignedData,
      element,
    );
    const resize = new ResizeObserver(() => {
      created.setSize({ width: Math.max(200, element.clientWidth), height: HEIGHT });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      created.destroy();
    };
  }, [dark, history]);

  return (
    <div>
      <Text size="xs" fw={600}>
        Latency on the port Ansible uses
        <Text span size="xs" c="dimmed" fw={400}>
          {" "}
          (failed checks in red)
        </Text>
      </Text>
      <div ref={box} role="img" aria-label="Latency over time" />
    </div>
  );
}
