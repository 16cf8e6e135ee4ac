import { Badge, Code, Group, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { ConfirmDeleteModal } from "@/components/confirm-delete-modal";
import type { Column } from "@/components/columns-table";
import { PagedTable } from "@/components/paged-table";
import { RowActions } from "@/components/row-actions";
import { SectionToolbar } from "@/components/section-toolbar";
import { useDeleteGalaxyServer } from "@/features/galaxy/api/delete-galaxy-server";
import { useGalaxyServers } from "@/features/galaxy/api/get-galaxy-servers";
import { GalaxyServerFormModal } from "@/features/galaxy/components/galaxy-server-form-modal";
import { usePageParam } from "@/hooks/use-page-param";

type GalaxyServer = Schemas["GalaxyServerRead"];

const columns: Column<GalaxyServer>[] = [
  { key: "position", header: "#", cell: (server) => <Text size="sm">{server.position}</Text> },
  {
    key: "name",
    header: "Name",
    cell: (server) => (
      <Stack gap={0}>
        <Text fw={500}>{server.name}</Text>
        <Text size="xs" c="dimmed" lineClamp={1}>
          {server.description}
        </Text>
      </Stack>
    ),
  },
  {
    key: "url",
    header: "URL",
    cell: (server) => (
      <Stack gap={2}>
        <Code style={{ wordBreak: "break-all" }}>{server.url}</Code>
        {server.auth_url && (
          <Text size="xs" c="dimmed" style={{ wordBreak: "break-all" }}>
            SSO {server.auth_url}
          </Text>
        )}
      </Stack>
    ),
  },
  {
    key: "access",
    header: "Access",
    cell: (server) => (
      <Group gap={4}>
        <Text size="sm">
          {server.key_name ?? (server.key_id ? `#${server.key_id}` : "anonymous")}
        </Text>
        {!server.validate_certs && (
          <Badge color="orange" variant="light" size="sm">
            certificates not checked
          </Badge>
        )}
      </Group>
    ),
  },
];

interface GalaxyServersPanelProps {
  projectId: number;
  /** may create, change and delete (resource:write) */
  canWrite: boolean;
}

/** The servers ansible-galaxy installs a run's roles and collections from, in order. */
export function GalaxyServersPanel({ projectId, canWrite }: GalaxyServersPanelProps) {
  const { page, setPage, limit, offset } = usePageParam(50, "galaxy");
  const servers = useGalaxyServers(projectId, limit, offset);
  const remove = useDeleteGalaxyServer(projectId);
  // undefined: no dialog; null: a new server
  const [editing, setEditing] = useState<GalaxyServer | null | undefined>(undefined);
  const [removing, setRemoving] = useState<GalaxyServer | null>(null);
  const actions: Column<GalaxyServer> = {
    key: "actions",
    header: "",
    cell: (server) =>
      canWrite && (
        <RowActions
          name={server.name}
          onEdit={() => setEditing(server)}
          onDelete={() => setRemoving(server)}
        />
      ),
  };
  return (
    <Stack>
      <Title order={3} size="h4">
        Galaxy servers
      </Title>
      <SectionToolbar
        description="Where a run's requirements.yml roles and collections are installed from, asked in this order. None: galaxy.ansible.com."
        actionLabel={canWrite ? "New Galaxy server" : undefined}
        onAction={() => setEditing(null)}
      />
      <PagedTable
        label="Galaxy servers"
        columns={[...columns, actions]}
        rowKey={(server) => server.id}
        data={servers.data}
        isPending={servers.isPending}
        error={servers.error}
        page={page}
        onPageChange={setPage}
        empty="No Galaxy servers: requirements come from galaxy.ansible.com."
      />
      {editing !== undefined && (
        <GalaxyServerFormModal
          projectId={projectId}
          server={editing}
          onClose={() => setEditing(undefined)}
        />
      )}
      <ConfirmDeleteModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        subject={`Galaxy server “${removing?.name ?? ""}”`}
        consequence="Runs no longer install requirements from it; its key stays in the project."
        onConfirm={() => remove.mutateAsync(removing?.id ?? 0)}
      />
    </Stack>
  );
}
