import { Badge, Stack, Text } from "@mantine/core";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { ConfirmDeleteModal } from "@/components/confirm-delete-modal";
import type { Column } from "@/components/columns-table";
import { PagedTable } from "@/components/paged-table";
import { RowActions } from "@/components/row-actions";
import { SectionToolbar } from "@/components/section-toolbar";
import { useDeleteKey } from "@/features/keys/api/delete-key";
import { useKeys } from "@/features/keys/api/get-keys";
import { CreateKeyModal } from "@/features/keys/components/create-key-modal";
import { EditKeyModal } from "@/features/keys/components/edit-key-modal";
import { KEY_KINDS } from "@/features/keys/components/kinds";
import { useNewParam } from "@/hooks/use-new-param";
import { usePageParam } from "@/hooks/use-page-param";
import { formatDateTime } from "@/lib/format";

type Key = Schemas["KeyRead"];

/** What identifies a key without its secret: user, vault ID, SSH fingerprint. */
function details(key: Key): string {
  return [key.username, key.vault_id && `vault ID ${key.vault_id}`, key.fingerprint]
    .filter(Boolean)
    .join(" · ");
}

interface KeysPanelProps {
  projectId: number;
  /** may create, change and delete keys (resource:write) */
  canWrite: boolean;
}

export function KeysPanel({ projectId, canWrite }: KeysPanelProps) {
  const { page, setPage, limit, offset } = usePageParam(25);
  const keys = useKeys(projectId, limit, offset);
  const remove = useDeleteKey(projectId);
  // the new key's dialog is in the URL (?new=1): the empty states link to it
  const [creating, setCreating] = useNewParam();
  const [removing, setRemoving] = useState<Key | null>(null);
  const [editing, setEditing] = useState<Key | null>(null);

  const columns: Column<Key>[] = [
    {
      key: "name",
      header: "Name",
      cell: (key) => (
        <Stack gap={0}>
          <Text fw={500}>{key.name}</Text>
          <Text size="xs" c="dimmed" lineClamp={1}>
            {key.description}
          </Text>
        </Stack>
      ),
    },
    { key: "kind", header: "Kind", cell: (key) => KEY_KINDS[key.kind] },
    {
      key: "details",
      header: "Details",
      visibleFrom: "md",
      cell: (key) => (
        <Text size="sm" ff="monospace" style={{ wordBreak: "break-all" }}>
          {details(key)}
        </Text>
      ),
    },
    {
      key: "secret",
      header: "Secret",
      visibleFrom: "sm",
      // write-only: the API says only whether a value is stored
      cell: (key) =>
        key.has_secret ? <Badge color="green">set</Badge> : <Badge color="gray">not set</Badge>,
    },
    {
      key: "updated",
      header: "Updated",
      visibleFrom: "lg",
      cell: (key) => <Text size="sm">{formatDateTime(key.updated_at)}</Text>,
    },
    {
      key: "actions",
      header: "",
      cell: (key) =>
        canWrite && (
          <RowActions
            name={key.name}
            onEdit={() => setEditing(key)}
            onDelete={() => setRemoving(key)}
          />
        ),
    },
  ];

  return (
    <Stack>
      <SectionToolbar
        description="Secrets are encrypted at rest and never shown again once stored."
        actionLabel={canWrite ? "New key" : undefined}
        onAction={() => setCreating(true)}
      />
      <PagedTable
        label="Keys"
        columns={columns}
        rowKey={(key) => key.id}
        data={keys.data}
        isPending={keys.isPending}
        error={keys.error}
        page={page}
        onPageChange={setPage}
        empty="No keys yet."
      />
      <CreateKeyModal
        projectId={projectId}
        opened={creating && canWrite}
        onClose={() => setCreating(false)}
      />
      {editing && (
        <EditKeyModal projectId={projectId} keyRead={editing} onClose={() => setEditing(null)} />
      )}
      <ConfirmDeleteModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        subject={`key “${removing?.name ?? ""}”`}
        consequence="The secret is gone for good. A key still used by a template or repository cannot be deleted."
        onConfirm={() => remove.mutateAsync(removing?.id ?? 0)}
      />
    </Stack>
  );
}
