import { Alert, Center, Group, Loader, Pagination, Table, Text } from "@mantine/core";
import type { MantineBreakpoint } from "@mantine/core";
import type { ReactNode } from "react";

/** The page envelope every list endpoint returns. */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** hide the column on screens narrower than this (phones show the essentials) */
  visibleFrom?: MantineBreakpoint;
}

interface PagedTableProps<T> {
  label: string;
  columns: readonly Column<T>[];
  rowKey: (row: T) => string | number;
  data: Page<T> | undefined;
  isPending: boolean;
  error: Error | null;
  page: number;
  onPageChange: (page: number) => void;
  empty: ReactNode;
}

export function PagedTable<T>(props: PagedTableProps<T>) {
  const { label, columns, rowKey, data, isPending, error, page, onPageChange, empty } = props;
  if (error) {
    return (
      <Alert color="red" title={`Could not load ${label.toLowerCase()}`}>
        {error.message}
      </Alert>
    );
  }
  if (isPending || !data) {
    return (
      <Center py="xl">
        <Loader aria-label={`Loading ${label.toLowerCase()}`} />
      </Center>
    );
  }
  if (data.total === 0) {
    // a sentence, or a block of its own (an empty state that says what comes first)
    if (typeof empty !== "string") return empty;
    return (
      <Text c="dimmed" py="md">
        {empty}
      </Text>
    );
  }
  const pages = Math.max(1, Math.ceil(data.total / data.limit));
  const first = data.offset + 1;
  const last = data.offset + data.items.length;
  return (
    <>
      <Table.ScrollContainer minWidth={320}>
        <Table highlightOnHover verticalSpacing="sm" aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column.key} visibleFrom={column.visibleFrom}>
                  {column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.items.map((row) => (
              <Table.Tr key={rowKey(row)}>
                {columns.map((column) => (
                  <Table.Td key={column.key} visibleFrom={column.visibleFrom}>
                    {column.cell(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between" mt="sm">
        <Text size="sm" c="dimmed">
          {first}–{last} of {data.total}
        </Text>
        {pages > 1 && (
          <Pagination
            total={pages}
            value={page}
            onChange={onPageChange}
            size="sm"
            getControlProps={(control) => ({ "aria-label": `${control} page` })}
          />
        )}
      </Group>
    </>
  );
}
