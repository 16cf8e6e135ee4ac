import { Table } from "@mantine/core";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ListTable } from "@/components/list-table";
import { renderWithProviders } from "@/testing/render";

interface Item {
  id: number;
  name: string;
}

function Things({ items }: { items: Item[] }) {
  return (
    <ListTable
      label="Things"
      empty="Nothing to list."
      columns={[{ title: "Name" }, { title: "Id", visibleFrom: "sm" }, {}]}
      items={items}
      rowKey={(item) => item.id}
      row={(item) => (
        <>
          <Table.Td>{item.name}</Table.Td>
          <Table.Td>#{item.id}</Table.Td>
          <Table.Td>go</Table.Td>
        </>
      )}
    />
  );
}

describe("ListTable", () => {
  it("says there is nothing instead of an empty table", () => {
    renderWithProviders(<Things items={[]} />);
    expect(screen.getByText("Nothing to list.")).toBeInTheDocument();
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
  });

  it("shows a named table with a header and a row an item, in order", () => {
    renderWithProviders(
      <Things
        items={[
          { id: 7, name: "web" },
          { id: 3, name: "db" },
        ]}
      />,
    );
    const table = screen.getByRole("table", { name: "Things" });
    const headers = within(table).getAllByRole("columnheader");
    expect(headers.map((h) => h.textContent)).toEqual(["Name", "Id", ""]);
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.textContent)).toEqual(["web#7go", "db#3go"]);
    expect(screen.queryByText("Nothing to list.")).not.toBeInTheDocument();
  });
});
