import { describe, expect, it } from "vitest";
import {
  chartData,
  chartsOf,
  CHARTS,
  formatValue,
  legendValue,
  taskBars,
} from "@/features/metrics/lib/charts";

describe("formatValue", () => {
  it("shows bytes, rates and percentages as people read them", () => {
    expect(formatValue(1536, "bytes")).toBe("1.5 KiB");
    expect(formatValue(3 * 1024 ** 3, "bytes")).toBe("3.0 GiB");
    expect(formatValue(512, "bytes/s")).toBe("512 B/s");
    expect(formatValue(7.25, "%")).toBe("7.3 %");
    expect(formatValue(93.4, "%")).toBe("93 %");
  });

  it("shows a missing sample as a dash, never as zero", () => {
    expect(formatValue(null, "%")).toBe("–");
    expect(formatValue(undefined, "bytes")).toBe("–");
  });
});

describe("chartsOf", () => {
  it("draws the run's own processes for the controller only", () => {
    const host = { "cpu.user": [], "mem.used": [], "disk.read_bytes": [], "net.rx_bytes": [] };
    expect(chartsOf(host).map((c) => c.id)).toEqual(["cpu", "memory", "disk", "network"]);
    expect(chartsOf({ ...host, "run.cpu": [] }).map((c) => c.id)).toContain("run");
  });
});

describe("chartData", () => {
  it("puts seconds on x and keeps missing samples as gaps", () => {
    const cpu = CHARTS.find((chart) => chart.id === "cpu");
    if (!cpu) throw new Error("no CPU chart");
    const data = chartData([1000, 2000], { "cpu.user": [5, null] }, cpu);
    expect(data[0]).toEqual([1, 2]);
    expect(data[1]).toEqual([5, null]);
    expect(data[2]).toEqual([null, null]); // cpu.system not in the answer: nothing drawn
  });
});

describe("the memory chart", () => {
  const memory = CHARTS.find((chart) => chart.id === "memory");
  if (!memory) throw new Error("no memory chart");
  const used = memory.series[0];
  if (!used) throw new Error("no memory series");
  const GiB = 1024 ** 3;
  const series = {
    "mem.used": [4 * GiB, 6 * GiB, null, 2 * GiB],
    "mem.total": [16 * GiB, 16 * GiB, 16 * GiB, null],
  };

  it("draws the memory used as a share of the total, on a 0-100 % axis", () => {
    expect(memory.unit).toBe("%");
    expect(memory.range).toEqual([0, 100]);
    // 4 GiB of 16 GiB reads 25 %, not the bottom of an axis fitted between "used" and "total"
    const data = chartData([1000, 2000, 3000, 4000], series, memory);
    expect(data[1]).toEqual([25, 37.5, null, null]); // a missing used or total: a gap
  });

  it("keeps the bytes in the legend", () => {
    expect(legendValue(memory, used, series, 1, 37.5)).toBe("38 % · 6.0 GiB of 16 GiB");
    expect(legendValue(memory, used, series, null, null)).toBe("–");
  });

  it("draws the other charts' values as they come", () => {
    const cpu = CHARTS.find((chart) => chart.id === "cpu");
    if (!cpu?.series[0]) throw new Error("no CPU chart");
    expect(chartData([1000], { "cpu.user": [40] }, cpu)[1]).toEqual([40]);
    expect(legendValue(cpu, cpu.series[0], { "cpu.user": [40] }, 0, 40)).toBe("40 %");
  });
});

describe("taskBars", () => {
  const entries = [
    {
      task: "burn",
      host: "web1",
      status: "ok",
      started_at: "2026-11-23T10:00:00Z",
      ended_at: "2026-11-23T10:00:04Z",
      counter: 3,
    },
    {
      task: "rest",
      host: "web2",
      status: "ok",
      started_at: "2026-11-23T10:00:04Z",
      ended_at: null,
      counter: 4,
    },
  ];

  it("keeps the results with both ends, of one host when asked", () => {
    const [bar, ...more] = taskBars(entries);
    expect(more).toEqual([]);
    expect(bar && bar.end - bar.start).toBe(4000);
    expect(taskBars(entries, "web2")).toEqual([]);
    expect(taskBars(entries, "web1").map((b) => b.task)).toEqual(["burn"]);
  });
});
