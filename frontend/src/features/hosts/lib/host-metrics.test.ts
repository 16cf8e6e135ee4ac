import { describe, expect, it } from "vitest";
import { type HostRunMetrics, formatBytes, perRunSeries } from "@/features/hosts/lib/host-metrics";

function run(over: Partial<HostRunMetrics>): HostRunMetrics {
  return {
    run_id: 1,
    template: "patch",
    created_at: "2026-11-28T10:00:00Z",
    start: 1_700_000_000_000,
    end: 1_700_000_060_000,
    samples: 60,
    gap_seconds: 0,
    cpu_avg: null,
    cpu_max: null,
    mem_used_max: null,
    mem_total: null,
    disk_read_bytes_avg: null,
    disk_write_bytes_avg: null,
    net_rx_bytes_avg: null,
    net_tx_bytes_avg: null,
    ...over,
  };
}

describe("perRunSeries", () => {
  it("is one point per run: its start, CPU mean and peak, memory peak in % of the machine", () => {
    const series = perRunSeries([
      run({ cpu_avg: 12.345, cpu_max: 80, mem_used_max: 1024, mem_total: 4096 }),
      run({ start: 1_700_000_600_000, cpu_avg: 3, mem_used_max: 2048 }),
    ]);
    expect(series.times).toEqual([1_700_000_000, 1_700_000_600]);
    expect(series.cpuAvg).toEqual([12.3, 3]);
    expect(series.cpuMax).toEqual([80, null]);
    // no total measured: no percentage rather than a wrong one
    expect(series.memPeak).toEqual([25, null]);
  });
});

describe("formatBytes", () => {
  it("uses binary units", () => {
    expect(formatBytes(null)).toBe("–");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(3 * 1024 ** 3)).toBe("3.0 GiB");
  });
});
