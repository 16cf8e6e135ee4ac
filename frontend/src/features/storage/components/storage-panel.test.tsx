import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/client";
import { StorageView } from "@/features/storage/components/storage-panel";
import { renderWithProviders } from "@/testing/render";

const MIB = 1024 * 1024;

function storage(overrides: Partial<Schemas["StorageRead"]> = {}): Schemas["StorageRead"] {
  return {
    database: "sqlite",
    size_bytes: 12 * MIB,
    free_bytes: 0,
    returns_space: true,
    tables: [
      { name: "run_output", bytes: 9 * MIB },
      { name: "runs", bytes: MIB },
    ],
    warning_bytes: 10 * MIB,
    over_warning: true,
    retention: {
      runs_days: 0,
      webhook_deliveries_days: 30,
      notification_messages_days: 30,
      audit_days: 365,
      tick_seconds: 3600,
    },
    last_prune: {
      at: "2026-11-27T20:00:00Z",
      detail: "removed 3 webhook deliveries older than 30 days; 8.0 KiB freed",
      size_before: 12 * MIB + 8192,
      size_after: 12 * MIB,
      bytes_freed: 8192,
    },
    ...overrides,
  };
}

describe("StorageView", () => {
  it("warns when the database is above its threshold, with the biggest tables and the last prune", () => {
    renderWithProviders(<StorageView storage={storage()} />);
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("The database is larger than its warning threshold");
    expect(alert).toHaveTextContent("12.0 MiB against 10.0 MiB");
    const tables = screen.getByRole("table", { name: "Biggest tables" });
    expect(
      within(tables)
        .getAllByRole("row")
        .map((row) => row.textContent),
    ).toEqual(["TableSize, with indexes", "run_output9.0 MiB", "runs1.0 MiB"]);
    const last = screen.getByLabelText("Last prune");
    expect(last).toHaveTextContent("8.0 KiB");
    expect(last).toHaveTextContent("removed 3 webhook deliveries");
    expect(screen.getByText("kept forever")).toBeInTheDocument(); // the runs' period
  });

  it("shows no warning under the threshold (control) and says when nothing was pruned", () => {
    renderWithProviders(
      <StorageView
        storage={storage({ over_warning: false, size_bytes: 5 * MIB, last_prune: null })}
      />,
    );
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.getByText("Nothing has been pruned yet.")).toBeInTheDocument();
    expect(screen.getByText(/50 % used/)).toBeInTheDocument();
  });

  it("on PostgreSQL says the space is reused, and without dbstat that it cannot list tables", () => {
    renderWithProviders(
      <StorageView
        storage={storage({
          database: "postgresql",
          free_bytes: null,
          tables: null,
          warning_bytes: null,
          over_warning: false,
        })}
      />,
    );
    expect(screen.getByText(/PostgreSQL reuses the space/)).toBeInTheDocument();
    expect(screen.getByText(/cannot say/)).toBeInTheDocument();
    expect(screen.getByText(/none \(STEWARD_DATABASE_SIZE_WARNING_MB\)/)).toBeInTheDocument();
  });
});
