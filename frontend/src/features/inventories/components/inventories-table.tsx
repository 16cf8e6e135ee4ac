import { Stack, Text } from "@mantine/core";
import type { Schemas } from "@/api/client";
import { type Column, PagedTable } from "@/components/paged-table";
import { useInventories } from "@/features/inventories/api/get-inventories";
import { usePageParam } from "@/hooks/use-page-param";

type Inventory = Schemas["InventoryRead"];

function source(inventory: Inventory): string {
  if (inventory.kind === "static") return `${inventory.format ?? ""} text`.trim();
  return inventory.path;
}

const columns: Column<Inventory>[] = [
  {
    key: "name",
    header: "Name",
    cell: (inventory) => (
      <Stack gap={0}>
        <Text fw={500}>{inventory.name}</Text>
        <Text size="xs" c="dimmed" lineClamp={1}>
          {inventory.description}
        </Text>
      </Stack>
    ),
  },
  { key: "kind", header: "Kind", cell: (inventory) => inventory.kind },
  {
    key: "source",
    header: "Source",
    visibleFrom: "sm",
    cell: (inventory) => (
      <Text size="sm" ff="monospace">
        {source(inventory)}
      </Text>
    ),
  },
];

// TODO(inventories UI): create/edit form with the resolved preview, hosts view, delete
export function InventoriesTable({ projectId }: { projectId: number }) {
  const { page, setPage, limit, offset } = usePageParam(25);
  const inventories = useInventories(projectId, limit, offset);
  return (
    <PagedTable
      label="Inventories"
      columns={columns}
      rowKey={(inventory) => inventory.id}
      data={inventories.data}
      isPending={inventories.isPending}
      error={inventories.error}
      page={page}
      onPageChange={setPage}
      empty="No inventories yet."
    />
  );
}
