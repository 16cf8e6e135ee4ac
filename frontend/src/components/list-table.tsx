import { Table, type TableThProps, Text } from "@mantine/core";
import type { ReactNode } from "react";

export interface ListColumn {
  /** the header; none for a column of buttons */
  title?: string;
  /** from which width the column shows (a narrow screen folds it into another) */
  visibleFrom?: TableThProps["visibleFrom"];
}

interface ListTableProps<T> {
  /** the table's accessible name */
  label: string;
  /** what shows, dimmed, instead of an empty table */
  empty: ReactNode;
  columns: ListColumn[];
  items: readonly T[];
  rowKey: (item: T) => string | number;
  /** the cells of an item's row */
  row: (item: T) => ReactNode;
}

/** A read-only list as a table (the dashboard's and the approvals'): a line of text when there
 * is nothing to list, else a header and a row an item, which wraps rather than scrolls down to
 * phone width. */
export function ListTable<T>({ label, empty, columns, items, rowKey, row }: ListTableProps<T>) {
  if (items.length === 0) {
    return <Text c="dimmed">{empty}</Text>;
  }
  return (
    <Table.ScrollContainer minWidth={300}>
      <Table aria-label={label} verticalSpacing="xs" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, i) => (
              <Table.Th key={column.title ?? i} visibleFrom={column.visibleFrom}>
                {column.title}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={rowKey(item)}>{row(item)}</Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
