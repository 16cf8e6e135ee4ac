/** What the metric lanes draw: per host, four charts (CPU, memory, disk, network) of series
 * from the API, with units, and the task bars lined up on the same time axis. */

export interface SeriesSpec {
  key: string;
  label: string;
  color: string;
  /** drawn as a percentage of this series (same unit, e.g. bytes used of the total bytes) */
  percentOf?: string;
}

export interface ChartSpec {
  id: "cpu" | "memory" | "disk" | "network" | "run";
  title: string;
  /** how to read it, beside the title */
  note?: string;
  unit: "%" | "bytes" | "bytes/s";
  series: SeriesSpec[];
  /** the y axis from/to, whatever the values (else it fits them) */
  range?: [number, number];
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
    // used as a share of the total on a 0-100 % axis: in bytes, an axis fitted to "used" and
    // "total" put "used" at its bottom, where every other chart reads zero
    id: "memory",
    title: "Memory",
    note: "used, % of the total",
    unit: "%",
    range: [0, 100],
    series: [{ key: "mem.used", label: "used", color: "#7950f2", percentOf: "mem.total" }],
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

/** Shading colors of the charts in the light or dark scheme (axis and grid: useUplot's). */
export function chartColors(dark: boolean) {
  return {
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

/** null: a missing sample, a break; undefined: no sample of that series then, the line goes on
 * (the compare overlay's runs sampled at other times). */
type Series = Record<string, readonly (number | null | undefined)[]>;

/** `s` at sample `index`: its own value, or its percentage of `percentOf` (null when either
 * is missing or the whole is not positive: a gap, never a zero). */
function valueAt(series: Series, s: SeriesSpec, index: number): number | null | undefined {
  const values = series[s.key];
  if (values === undefined) return null;
  const value = values[index];
  if (s.percentOf === undefined || value === null || value === undefined) return value;
  const whole = series[s.percentOf]?.[index] ?? null;
  return whole === null || whole <= 0 ? null : (value / whole) * 100;
}

/** uPlot's data: seconds on x (uPlot's time scale), then one array per series. */
export function chartData(
  times: readonly number[],
  series: Series,
  spec: ChartSpec,
): (number | null | undefined)[][] {
  return [
    times.map((t) => t / 1000),
    ...spec.series.map((s) => times.map((_, index) => valueAt(series, s, index))),
  ];
}

/** The legend's value of `s` at sample `index`: a share also says its parts, so
 * "42 % · 6.5 GiB of 16 GiB". */
export function legendValue(
  spec: ChartSpec,
  s: SeriesSpec,
  series: Series,
  index: number | null,
  value: number | null,
): string {
  const shown = formatValue(value, spec.unit);
  if (s.percentOf === undefined || index === null || value === null) return shown;
  const part = series[s.key]?.[index] ?? null;
  const whole = series[s.percentOf]?.[index] ?? null;
  return `${shown} · ${formatValue(part, "bytes")} of ${formatValue(whole, "bytes")}`;
}
