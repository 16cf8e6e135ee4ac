import { Group, SegmentedControl, Stack, Table, Text, Title } from "@mantine/core";
import { useState } from "react";
import { Link } from "react-router";
import type uPlot from "uplot";
import { QueryState } from "@/components/query-state";
import { useHostMetrics } from "@/features/hosts/api/get-host-metrics";
import {
  type HostRunMetrics,
  formatBytes,
  formatPercent,
  perRunSeries,
} from "@/features/hosts/lib/host-metrics";
import { schemeAxis, useUplot } from "@/hooks/use-uplot";
import { formatDateTime, plural } from "@/lib/format";
import { paths } from "@/lib/paths";

const HEIGHT = 160;
const COUNTS = [
  { value: "10", label: "10 runs" },
  { value: "30", label: "30 runs" },
  { value: "100", label: "100 runs" },
];

/** The host's metrics from the runs that touched it: one point per run (CPU mean and peak,
 * memory peak), and the newest runs' figures with a link to each run's own charts. */
export function HostMetrics({ projectId, host }: { projectId: number; host: string }) {
  const [count, setCount] = useState("30");
  const metrics = useHostMetrics(projectId, host, Number(count));
  return (
    <Stack gap="xs" aria-label="Metrics" component="section">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={3}>Metrics per run</Title>
        <SegmentedControl size="xs" data={COUNTS} value={count} onChange={setCount} />
      </Group>
      <QueryState query={metrics} loading="Loading the host's metrics">
        {(read) =>
          read.runs.length === 0 ? (
            <Text size="sm" c="dimmed">
              No run has sampled this host: a run records a host&apos;s metrics when its inventory
              names a pmproxy endpoint (its metrics endpoint).
            </Text>
          ) : (
            <Stack gap="sm">
              <Text size="xs" c="dimmed">
                {plural(read.runs.length, "run")}
                {read.more ? " (the newest; older runs have metrics too)" : ""}
              </Text>
              <PerRunChart runs={read.runs} />
              <RecentRuns projectId={projectId} runs={read.runs} />
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}

/** The runs' span; one run (or runs a moment apart): an hour either side of it, not years of
 * empty axis. */
function xRange(times: readonly number[]): [number, number] {
  const lo = Math.min(...times);
  const hi = Math.max(...times);
  return hi - lo < 60 ? [lo - 3600, hi + 3600] : [lo, hi];
}

function PerRunChart({ runs }: { runs: readonly HostRunMetrics[] }) {
  const { box } = useUplot(
    HEIGHT,
    (scheme) => {
      const { times, cpuAvg, cpuMax, memPeak } = perRunSeries(runs);
      const value = (_u: uPlot, v: number | null) => formatPercent(v);
      return {
        options: {
          cursor: { drag: { x: false, y: false } },
          legend: { show: true, live: true },
          scales: {
            x: { time: true, auto: false, range: xRange(times) },
            y: { range: [0, 100] },
          },
          axes: [
            schemeAxis(scheme),
            schemeAxis(scheme, { size: 50, values: (_u, ticks) => ticks.map((v) => `${v} %`) }),
          ],
          series: [
            {},
            { label: "CPU mean", stroke: "#228be6", width: 1.5, value, points: { show: true } },
            {
              label: "CPU peak",
              stroke: "#fa5252",
              width: 1,
              dash: [4, 3],
              value,
              points: { show: true },
            },
            { label: "Memory peak", stroke: "#40c057", width: 1.5, value, points: { show: true } },
          ],
        },
        data: [times, cpuAvg, cpuMax, memPeak] as uPlot.AlignedData,
      };
    },
    [runs],
  );

  return (
    <div>
      <Text size="xs" fw={600}>
        Each run on this host
        <Text span size="xs" c="dimmed" fw={400}>
          {" "}
          (% of the machine, at the run&apos;s start)
        </Text>
      </Text>
      <div ref={box} role="img" aria-label="Metrics per run" />
    </div>
  );
}

function RecentRuns({ projectId, runs }: { projectId: number; runs: readonly HostRunMetrics[] }) {
  const newest = [...runs].reverse().slice(0, 5);
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table striped fz="sm" aria-label="Newest runs' metrics">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Run</Table.Th>
            <Table.Th>CPU mean / peak</Table.Th>
            <Table.Th>Memory peak</Table.Th>
            <Table.Th>Disk read / write</Table.Th>
            <Table.Th>Network in / out</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {newest.map((r) => (
            <Table.Tr key={r.run_id}>
              <Table.Td>
                <Link to={paths.run(projectId, r.run_id)}>
                  #{r.run_id} {r.template}
                </Link>
                <Text size="xs" c="dimmed">
                  {formatDateTime(r.created_at)}
                  {r.gap_seconds > 0 ? ` · ${Math.round(r.gap_seconds)} s without samples` : ""}
                </Text>
              </Table.Td>
              <Table.Td>
                {formatPercent(r.cpu_avg)} / {formatPercent(r.cpu_max)}
              </Table.Td>
              <Table.Td>{formatBytes(r.mem_used_max)}</Table.Td>
              <Table.Td>
                {formatBytes(r.disk_read_bytes_avg)}/s / {formatBytes(r.disk_write_bytes_avg)}/s
              </Table.Td>
              <Table.Td>
                {formatBytes(r.net_rx_bytes_avg)}/s / {formatBytes(r.net_tx_bytes_avg)}/s
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
