import { MantineProvider } from "@mantine/core";
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PreviewTable } from "@/features/schedules/components/schedule-preview";

const renderPreview = (preview: Parameters<typeof PreviewTable>[0]["preview"]) =>
  render(
    <MantineProvider>
      <PreviewTable preview={preview} locale="en-GB" />
    </MantineProvider>,
  );

describe("PreviewTable", () => {
  it("shows each run in the schedule's zone and the viewer's, across a DST change", () => {
    renderPreview({
      timezone: "Europe/Berlin",
      viewer_tz: "America/New_York",
      enabled: true,
      items: [
        {
          at: "2026-03-27T01:30:00Z",
          local: "2026-03-27T02:30:00+01:00",
          viewer: "2026-03-26T21:30:00-04:00",
        },
        {
          at: "2026-03-30T00:30:00Z",
          local: "2026-03-30T02:30:00+02:00",
          viewer: "2026-03-29T20:30:00-04:00",
        },
      ],
    });
    const table = screen.getByRole("table", { name: "Next runs" });
    const headers = within(table)
      .getAllByRole("columnheader")
      .map((h) => h.textContent);
    expect(headers).toEqual(["#", "Schedule: Europe/Berlin", "You: America/New_York"]);
    const rows = within(table).getAllByRole("row").slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole("cell")
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ["1", "Fri, 27 Mar 2026, 02:30 (UTC+01:00)", "Thu, 26 Mar 2026, 21:30 (UTC-04:00)"],
      ["2", "Mon, 30 Mar 2026, 02:30 (UTC+02:00)", "Sun, 29 Mar 2026, 20:30 (UTC-04:00)"],
    ]);
  });

  it("uses one column when the viewer is in the schedule's zone", () => {
    renderPreview({
      timezone: "UTC",
      viewer_tz: "UTC",
      enabled: true,
      items: [
        {
          at: "2026-03-30T00:30:00Z",
          local: "2026-03-30T00:30:00Z",
          viewer: "2026-03-30T00:30:00Z",
        },
      ],
    });
    const headers = screen.getAllByRole("columnheader").map((h) => h.textContent);
    expect(headers).toEqual(["#", "UTC (schedule and you)"]);
  });

  it("says so when no run is ahead", () => {
    renderPreview({ timezone: "UTC", viewer_tz: "UTC", enabled: true, items: [] });
    expect(screen.getByText(/No occurrence ahead/)).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  it("lists no next run while the schedule is off, whatever the answer holds", () => {
    const item = { at: "2026-03-30T00:30:00Z", local: "2026-03-30T00:30:00Z", viewer: "x" };
    renderPreview({ timezone: "UTC", viewer_tz: "UTC", enabled: false, items: [item] });
    expect(screen.getByText(/No next run: the schedule is off/)).toBeInTheDocument();
    expect(screen.queryByRole("table", { name: "Next runs" })).not.toBeInTheDocument();
  });
});
