import {
  type MantineBreakpoint,
  Table,
  type TableProps,
  type TableTdProps,
  VisuallyHidden,
} from "@mantine/core";
import type { ReactNode } from "react";

/** A column of a table: its header and what a row shows in it. */
export interface Column<T> {
  key: string;
  /** none for a column of buttons: "Actions" for screen readers, blank on screen */
  header?: ReactNode;
  cell: (row: T) => ReactNode;
  /** hide the column on screens narrower than this (phones show the essentials) */
  visibleFrom?: MantineBreakpoint;
  /** the column's width (a share, in a table of fixed layout) */
  width?: string | number;
  /** the cells' own look: `{ ta: "right" }` for buttons, `{ ff: "monospace" }` for names */
  td?: TableTdProps;
}

interface ColumnsTableProps<T> extends Omit<TableProps, "data" | "children"> {
  /** the table's accessible name */
  label: string;
  columns: readonly Column<T>[];
  rows: readonly T[];
  /** a row's React key: its id (the index only for rows that never move) */
  rowKey: (row: T, index: number) => string | number;
  /** the width below which it scrolls sideways (0: it wraps instead) */
  minWidth?: number;
  /** a small table in a panel: smaller text, tighter rows, and it wraps rather than scrolls */
  compact?: boolean;
  /** the height above which it scrolls down */
  maxHeight?: number;
}

/** A table from its columns: a header, then a row an item. */
export function ColumnsTable<T>(props: ColumnsTableProps<T>) {
  const { label, columns, rows, rowKey, compact = false, minWidth, maxHeight, ...table } = props;
  const look: Partial<TableProps> = compact ? { verticalSpacing: "xs", fz: "sm" } : {};
  return (
    <Table.ScrollContainer minWidth={minWidth ?? (compact ? 0 : 320)} mah={maxHeight}>
      <Table aria-label={label} {...look} {...table}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key} visibleFrom={column.visibleFrom} w={column.width}>
                {column.header ?? <VisuallyHidden>Actions</VisuallyHidden>}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={rowKey(row, index)}>
              {columns.map((column) => (
                <Table.Td key={column.key} visibleFrom={column.visibleFrom} {...column.td}>
                  {column.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
