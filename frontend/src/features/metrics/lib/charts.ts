/** What the metric lanes draw: per host, four charts (CPU, memory, disk, network) of series
 * from the API, with units, and the task bars lined up on the same time axis. */

export interface SeriesSpec {
  key: string;
  label: string;
  color: string;
}

export interface ChartSpec {
  id: "cpu" | "memory" | "disk" | "network" | "run";
  title: string;
  unit: "%" | "bytes" | "bytes/s";
  series: SeriesSpec[];
}

export const CHARTS: readonly ChartSpec[] = [
  {
    id: "cpu",
    title: "CPU",
    unit: "%",
    series: [
      { key: "cpu.user", label: "user", color: "#228be6" },
      { key: "cpu.system", label: "system", color: "#fa5252" },
      { key: "cpu.iowait", label: "iowait", color: "#fab005" },
    ],
  },
  {
    id: "memory",
    title: "Memory",
    unit: "bytes",
    series: [
      { key: "mem.used", label: "used", color: "#7950f2" },
      { key: "mem.total", label: "total", color: "#868e96" },
    ],
  },
  {
    id: "disk",
    title: "Disk",
    unit: "bytes/s",
    series: [
      { key: "disk.read_bytes", label: "read", color: "#12b886" },
      { key: "disk.write_bytes", label: "write", color: "#e64980" },
    ],
  },
  {
    id: "network",
    title: "Network",
    unit: "bytes/s",
    series: [
      { key: "net.rx_bytes", label: "received", color: "#15aabf" },
      { key: "net.tx_bytes", label: "sent", color: "#fd7e14" },
    ],
  },
  {
    id: "run",
    title: "This run's processes (CPU, % of one core)",
    unit: "%",
    series: [{ key: "run.cpu", label: "CPU", color: "#40c057" }],
  },
];

/** The charts a lane has data for (a target host has no `run.*` series). */
export function chartsOf(series: Record<string, unknown>): ChartSpec[] {
  return CHARTS.filter((chart) => chart.series.some((s) => s.key in series));
}

/** Axis, grid and shading colors of the charts in the light or dark scheme. */
export function chartColors(dark: boolean) {
  return {
    axis: dark ? "#c1c2c5" : "#495057",
    grid: dark ? "rgba(255,255,255,0.08)" : "rgba(0,0,0,0.07)",
    highlight: dark ? "rgba(250,176,5,0.22)" : "rgba(250,176,5,0.25)",
    gap: dark ? "rgba(255,255,255,0.07)" : "rgba(0,0,0,0.06)",
  };
}

/** One color per compared run. */
export const RUN_COLORS = ["#228be6", "#fa5252", "#40c057", "#be4bdb"];

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB"];

/** 1536 -> "1.5 KiB"; rates get "/s". */
export function formatValue(value: number | null | undefined, unit: ChartSpec["unit"]): string {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  if (unit === "%") return `${value.toFixed(value < 10 ? 1 : 0)} %`;
  let scaled = value;
  let index = 0;
  while (Math.abs(scaled) >= 1024 && index < UNITS.length - 1) {
    scaled /= 1024;
    index += 1;
  }
  const text = `${scaled.toFixed(scaled < 10 && index > 0 ? 1 : 0)} ${UNITS[index]}`;
  return unit === "bytes/s" ? `${text}/s` : text;
}

export interface TaskBar {
  task: string;
  host: string;
  status: string;
  start: number;
  end: number;
  counter: number;
}

interface TaskInput {
  task: string;
  host: string;
  status: string;
  started_at: string | null;
  ended_at: string | null;
  counter: number;
}

/** Task results with both ends known, as epoch milliseconds, for one host (or all). */
export function taskBars(entries: readonly TaskInput[], host?: string): TaskBar[] {
  return entries.flatMap((entry) => {
    if (host !== undefined && entry.host !== host) return [];
    const start = entry.started_at ? Date.parse(entry.started_at) : NaN;
    const end = entry.ended_at ? Date.parse(entry.ended_at) : NaN;
    if (Number.isNaN(start) || Number.isNaN(end)) return [];
    return [{ ...entry, start, end: Math.max(start, end) }];
  });
}

/** uPlot's data: seconds on x (uPlot's time scale), then one array per series (null: a
 * missing sample, a break; undefined: no sample of that series then, the line goes on). */
export function chartData(
  times: readonly number[],
  series: Record<string, readonly (number | null | undefined)[]>,
  spec: ChartSpec,
): (number | null | undefined)[][] {
  return [
    times.map((t) => t / 1000),
    ...spec.series.map((s) => [...(series[s.key] ?? times.map(() => null))]),
  ];
}
