import { Alert, Center, Group, Loader, Pagination, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { type Column, ColumnsTable } from "@/components/columns-table";

/** The page envelope every list endpoint returns. */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
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
      <ColumnsTable
        label={label}
        columns={columns}
        rows={data.items}
        rowKey={rowKey}
        highlightOnHover
        verticalSpacing="sm"
      />
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
