import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/client";
import { formatBytes, formatPeriod, storageWarnings, thresholdShare } from "./storage";

const MIB = 1024 * 1024;

function storage(overrides: Partial<Schemas["StorageRead"]> = {}): Schemas["StorageRead"] {
  return {
    database: "sqlite",
    size_bytes: 10 * MIB,
    free_bytes: 0,
    returns_space: true,
    tables: [],
    warning_bytes: null,
    over_warning: false,
    retention: {
      runs_days: 90,
      webhook_deliveries_days: 30,
      notification_messages_days: 30,
      audit_days: 365,
      tick_seconds: 3600,
    },
    last_prune: null,
    ...overrides,
  };
}

describe("formatBytes", () => {
  it("counts in binary units, bytes as they are", () => {
    expect(formatBytes(0)).toBe("0 bytes");
    expect(formatBytes(1023)).toBe("1023 bytes");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(5 * MIB)).toBe("5.0 MiB");
    expect(formatBytes(3 * 1024 * 1024 * MIB)).toBe("3.0 TiB");
    expect(formatBytes(5000 * 1024 * 1024 * MIB)).toBe("5000.0 TiB"); // no unit past TiB
  });
});

describe("formatPeriod", () => {
  it("says 0 is forever", () => {
    expect(formatPeriod(0)).toBe("kept forever");
    expect(formatPeriod(1)).toBe("1 day");
    expect(formatPeriod(30)).toBe("30 days");
  });
});

describe("thresholdShare", () => {
  it("is the size against the threshold, none without one", () => {
    expect(thresholdShare({ size_bytes: 5 * MIB, warning_bytes: 10 * MIB })).toBe(50);
    expect(thresholdShare({ size_bytes: 15 * MIB, warning_bytes: 10 * MIB })).toBe(150);
    expect(thresholdShare({ size_bytes: 15 * MIB, warning_bytes: null })).toBeNull();
  });
});

describe("storageWarnings", () => {
  it("warns above the threshold, as the server decided it", () => {
    const over = storageWarnings(storage({ warning_bytes: MIB, over_warning: true }));
    expect(over.map((w) => w.title)).toEqual(["The database is larger than its warning threshold"]);
    expect(over[0]?.text).toContain("10.0 MiB against 1.0 MiB");
    // control: the same database under its threshold, and with none
    expect(storageWarnings(storage({ warning_bytes: 100 * MIB }))).toEqual([]);
    expect(storageWarnings(storage())).toEqual([]);
  });

  it("names runs kept forever as the likely cause", () => {
    const retention = { ...storage().retention, runs_days: 0 };
    const [warning] = storageWarnings(
      storage({ warning_bytes: MIB, over_warning: true, retention }),
    );
    expect(warning?.text).toContain("finished runs are kept forever");
  });

  it("tells a 0.1.0 file to be compacted once, with what waits in it", () => {
    const [warning] = storageWarnings(storage({ returns_space: false, free_bytes: 3 * MIB }));
    expect(warning?.text).toContain("steward prune --compact");
    expect(warning?.text).toContain("3.0 MiB are free in it now");
  });
});
