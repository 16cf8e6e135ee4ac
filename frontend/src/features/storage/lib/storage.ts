import type { Schemas } from "@/api/client";

type Storage = Schemas["StorageRead"];

const UNITS = ["bytes", "KiB", "MiB", "GiB", "TiB"] as const;

/** Binary units, as the server's prune records and `du -h` count: 1536 -> "1.5 KiB". */
export function formatBytes(count: number): string {
  let size = count;
  let unit = 0;
  while (size >= 1024 && unit < UNITS.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${count} bytes` : `${size.toFixed(1)} ${UNITS[unit]}`;
}

/** A retention period: 0 keeps forever. */
export function formatPeriod(days: number): string {
  if (days === 0) return "kept forever";
  return days === 1 ? "1 day" : `${days.toLocaleString()} days`;
}

/** The size against the warning threshold, in percent (may pass 100); null when none is set. */
export function thresholdShare(storage: Pick<Storage, "size_bytes" | "warning_bytes">) {
  if (!storage.warning_bytes) return null;
  return (storage.size_bytes / storage.warning_bytes) * 100;
}

/** What the page warns about, most urgent first: each a title and what to do. */
export function storageWarnings(storage: Storage): { title: string; text: string }[] {
  const warnings: { title: string; text: string }[] = [];
  if (storage.over_warning && storage.warning_bytes) {
    warnings.push({
      title: "The database is larger than its warning threshold",
      text:
        `${formatBytes(storage.size_bytes)} against ${formatBytes(storage.warning_bytes)}` +
        " (STEWARD_DATABASE_SIZE_WARNING_MB). Shorten the retention periods" +
        (storage.retention.runs_days === 0 ? " (finished runs are kept forever)" : "") +
        " and run `steward prune`, or raise the threshold.",
    });
  }
  if (!storage.returns_space) {
    const free = storage.free_bytes
      ? ` ${formatBytes(storage.free_bytes)} are free in it now.`
      : "";
    warnings.push({
      title: "Pruning does not shrink this database file",
      text:
        "It was made by Steward 0.1.0, without incremental vacuum: run `steward prune --compact`" +
        " once, at a quiet time (it rewrites the file and needs as much free disk)." +
        free,
    });
  }
  return warnings;
}
