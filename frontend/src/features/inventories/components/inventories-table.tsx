import { Badge, Stack, Text } from "@mantine/core";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { ConfirmDeleteModal } from "@/components/confirm-delete-modal";
import type { Column } from "@/components/columns-table";
import { PagedTable } from "@/components/paged-table";
import { RowActions, RowButton } from "@/components/row-actions";
import { SectionToolbar } from "@/components/section-toolbar";
import { SetupGuide, newHref } from "@/components/setup-guide";
import { useDeleteInventory } from "@/features/inventories/api/delete-inventory";
import { useInventories } from "@/features/inventories/api/get-inventories";
import { AdhocModal } from "@/features/inventories/components/adhoc-modal";
import { InventoryFormModal } from "@/features/inventories/components/inventory-form-modal";
import { InventoryHostsModal } from "@/features/inventories/components/inventory-hosts-modal";
import { healthSummary } from "@/features/inventories/lib/health";
import { useNewParam } from "@/hooks/use-new-param";
import { usePageParam } from "@/hooks/use-page-param";
import type { CreateInPlace } from "@/lib/create-in-place";

type Inventory = Schemas["InventoryRead"];

function source(inventory: Inventory): string {
  if (inventory.kind === "static") return `${inventory.format ?? ""} text`.trim();
  return inventory.path;
}

interface InventoriesTableProps {
  projectId: number;
  /** may create, change and delete (resource:write) */
  canWrite: boolean;
  /** may run an ad-hoc command on an inventory's hosts (adhoc:run) */
  canRunCommand?: boolean;
  /** the repository dialog its form may open in place (from src/app) */
  createInPlace?: Pick<CreateInPlace, "repository">;
}

export function InventoriesTable({
  projectId,
  canWrite,
  canRunCommand = false,
  createInPlace,
}: InventoriesTableProps) {
  const { page, setPage, limit, offset } = usePageParam(25);
  const inventories = useInventories(projectId, limit, offset);
  const remove = useDeleteInventory(projectId);
  const [editing, setEditing] = useState<Inventory | null>(null);
  // a new inventory's dialog is in the URL (?new=1): the empty states link to it
  const [creating, setCreating] = useNewParam();
  const [removing, setRemoving] = useState<Inventory | null>(null);
  const [viewing, setViewing] = useState<Inventory | null>(null);
  const [commanding, setCommanding] = useState<Inventory | null>(null);

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
    {
      key: "kind",
      header: "Kind",
      cell: (inventory) => <Badge variant="light">{inventory.kind}</Badge>,
    },
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
    {
      key: "health",
      header: "Health",
      cell: (inventory) => {
        const summary = healthSummary(inventory.health);
        return (
          <Text size="sm" c={summary.color}>
            {summary.text}
          </Text>
        );
      },
    },
    {
      key: "actions",
      header: "",
      cell: (inventory) => (
        <RowActions
          name={inventory.name}
          onEdit={canWrite ? () => setEditing(inventory) : undefined}
          onDelete={canWrite ? () => setRemoving(inventory) : undefined}
        >
          <RowButton
            label={`Hosts of ${inventory.name}`}
            variant="light"
            onClick={() => setViewing(inventory)}
          >
            Hosts
          </RowButton>
          {canRunCommand && (
            <RowButton
              label={`Run a command on ${inventory.name}`}
              variant="light"
              onClick={() => setCommanding(inventory)}
            >
              Run command
            </RowButton>
          )}
        </RowActions>
      ),
    },
  ];

  return (
    <Stack>
      <SectionToolbar
        description="The hosts a template runs on: INI or YAML text kept here, or a file or plugin from a repository."
        actionLabel={canWrite ? "New inventory" : undefined}
        onAction={() => setCreating(true)}
      />
      <PagedTable
        label="Inventories"
        columns={columns}
        rowKey={(inventory) => inventory.id}
        data={inventories.data}
        isPending={inventories.isPending}
        error={inventories.error}
        page={page}
        onPageChange={setPage}
        empty={
          <SetupGuide
            projectId={projectId}
            section="inventories"
            empty="No inventories yet."
            own={
              canWrite
                ? {
                    label: "New inventory",
                    href: newHref(projectId, "inventory"),
                    hint: "the inventory",
                  }
                : undefined
            }
          />
        }
      />
      {(editing !== null || (creating && canWrite)) && (
        <InventoryFormModal
          projectId={projectId}
          inventory={editing}
          create={createInPlace}
          onClose={() => (editing ? setEditing(null) : setCreating(false))}
        />
      )}
      {viewing && (
        <InventoryHostsModal
          projectId={projectId}
          inventory={viewing}
          onClose={() => setViewing(null)}
        />
      )}
      {commanding && (
        <AdhocModal
          projectId={projectId}
          inventory={commanding}
          onClose={() => setCommanding(null)}
        />
      )}
      <ConfirmDeleteModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        subject={`inventory “${removing?.name ?? ""}”`}
        consequence="An inventory still used by a template cannot be deleted."
        onConfirm={() => remove.mutateAsync(removing?.id ?? 0)}
      />
    </Stack>
  );
}
