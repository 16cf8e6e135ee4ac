import { Text } from "@mantine/core";
import type uPlot from "uplot";
import { schemeAxis, useUplot } from "@/hooks/use-uplot";
import { type HealthCheck, formatMs, latencySeries } from "@/features/hosts/lib/health";

const HEIGHT = 140;

/** The host's latency over time (uPlot, as the run metrics' charts): TCP connect and SSH
 * banner times; failed checks shaded red, a break in the lines. */
export function HealthChart({ history }: { history: readonly HealthCheck[] }) {
  const { box } = useUplot(
    HEIGHT,
    (scheme) => {
      const { times, tcp, banner, failed } = latencySeries(history);
      const failedFill = scheme.dark ? "rgba(250,82,82,0.35)" : "rgba(250,82,82,0.3)";
      const value = (_u: uPlot, v: number | null) => formatMs(v);
      return {
        options: {
          cursor: { drag: { x: false, y: false } },
          legend: { show: true, live: true },
          axes: [
            schemeAxis(scheme),
            schemeAxis(scheme, { size: 60, values: (_u, ticks) => ticks.map((v) => `${v} ms`) }),
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
        data: [times, tcp, banner] as uPlot.AlignedData,
      };
    },
    [history],
  );

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
