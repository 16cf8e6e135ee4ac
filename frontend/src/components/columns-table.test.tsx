import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { type Column, ColumnsTable } from "@/components/columns-table";
import { renderWithProviders } from "@/testing/render";

interface Item {
  id: number;
  name: string;
}

const COLUMNS: readonly Column<Item>[] = [
  { key: "name", header: "Name", td: { ff: "monospace" }, cell: (item) => item.name },
  { key: "id", header: "Id", visibleFrom: "sm", cell: (item) => `#${item.id}` },
  { key: "actions", td: { ta: "right" }, cell: (item) => <button>Open {item.name}</button> },
];

describe("ColumnsTable", () => {
  it("shows a named table: the headers, then a row an item with a cell a column, in order", () => {
    renderWithProviders(
      <ColumnsTable
        label="Things"
        columns={COLUMNS}
        rows={[
          { id: 2, name: "beta" },
          { id: 1, name: "alpha" },
        ]}
        rowKey={(item) => item.id}
      />,
    );
    const table = screen.getByRole("table", { name: "Things" });
    const headers = within(table).getAllByRole("columnheader");
    expect(headers.map((th) => th.textContent)).toEqual(["Name", "Id", "Actions"]);
    const rows = within(table).getAllByRole("row").slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole("cell")
          .map((td) => td.textContent),
      ),
    ).toEqual([
      ["beta", "#2", "Open beta"],
      ["alpha", "#1", "Open alpha"],
    ]);
  });

  it("names a column without a header for screen readers only", () => {
    renderWithProviders(
      <ColumnsTable label="Things" columns={COLUMNS} rows={[]} rowKey={(item) => item.id} />,
    );
    // Mantine's VisuallyHidden: in the accessible name, not on screen
    const actions = screen.getByRole("columnheader", { name: "Actions" });
    expect(within(actions).getByText("Actions")).toHaveClass("mantine-VisuallyHidden-root");
  });
});
