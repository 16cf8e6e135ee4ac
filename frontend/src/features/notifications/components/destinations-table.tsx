import { Anchor, Badge, Button, Group, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { ConfirmDeleteModal } from "@/components/confirm-delete-modal";
import type { Column } from "@/components/columns-table";
import { PagedTable } from "@/components/paged-table";
import { RowActions } from "@/components/row-actions";
import { SectionToolbar } from "@/components/section-toolbar";
import {
  useDeleteDestination,
  useDestinations,
  useTestDestination,
} from "@/features/notifications/api/destinations";
import { DestinationFormModal } from "@/features/notifications/components/destination-form-modal";
import { KINDS, destinationTarget } from "@/features/notifications/lib/destination-form";
import { usePageParam } from "@/hooks/use-page-param";
import { paths } from "@/lib/paths";

type Destination = Schemas["DestinationRead"];

interface DestinationsTableProps {
  projectId: number;
  /** may create, change, test and delete (resource:write) */
  canWrite: boolean;
  /** where a test is followed: the destination's page */
  onTested: (destination: Destination) => void;
}

export function DestinationsTable({ projectId, canWrite, onTested }: DestinationsTableProps) {
  const { page, setPage, limit, offset } = usePageParam(25, "destinations");
  const destinations = useDestinations(projectId, limit, offset);
  const remove = useDeleteDestination(projectId);
  const test = useTestDestination(projectId);
  const [editing, setEditing] = useState<Destination | null | undefined>(undefined);
  const [removing, setRemoving] = useState<Destination | null>(null);

  const sendTest = (d: Destination) =>
    test.mutate(d.id, {
      onSuccess: () => onTested(d),
      onError: (error) => notifications.show({ color: "red", message: error.message }),
    });

  const columns: Column<Destination>[] = [
    {
      key: "name",
      header: "Name",
      cell: (d) => (
        <Stack gap={0}>
          <Anchor component={Link} to={paths.destination(projectId, d.id)} fw={500}>
            {d.name}
          </Anchor>
          <Text size="xs" c="dimmed" lineClamp={1}>
            {d.description}
          </Text>
        </Stack>
      ),
    },
    {
      key: "kind",
      header: "Kind",
      cell: (d) => (
        <Badge variant="outline">{KINDS.find((k) => k.value === d.kind)?.label ?? d.kind}</Badge>
      ),
    },
    {
      key: "target",
      header: "Sends to",
      visibleFrom: "md",
      cell: (d) => (
        <Text size="sm" style={{ wordBreak: "break-all" }} lineClamp={2}>
          {destinationTarget(d)}
        </Text>
      ),
    },
    {
      key: "state",
      header: "State",
      visibleFrom: "sm",
      cell: (d) => (d.enabled ? <Badge color="green">On</Badge> : <Badge color="gray">Off</Badge>),
    },
    {
      key: "actions",
      header: "",
      cell: (d) =>
        canWrite && (
          <Group gap={4} justify="flex-end" wrap="wrap">
            <Button
              size="compact-sm"
              variant="light"
              aria-label={`Send a test to ${d.name}`}
              loading={test.isPending && test.variables === d.id}
              onClick={() => sendTest(d)}
            >
              Send test
            </Button>
            <RowActions
              name={d.name}
              onEdit={() => setEditing(d)}
              onDelete={() => setRemoving(d)}
            />
          </Group>
        ),
    },
  ];

  return (
    <Stack>
      <SectionToolbar
        description="Where run events are told: an email address, a Slack or Teams channel, or a JSON webhook."
        actionLabel={canWrite ? "New destination" : undefined}
        onAction={() => setEditing(null)}
      />
      <PagedTable
        label="Destinations"
        columns={columns}
        rowKey={(d) => d.id}
        data={destinations.data}
        isPending={destinations.isPending}
        error={destinations.error}
        page={page}
        onPageChange={setPage}
        empty="No destinations yet."
      />
      {editing !== undefined && (
        <DestinationFormModal
          projectId={projectId}
          destination={editing}
          onClose={() => setEditing(undefined)}
        />
      )}
      <ConfirmDeleteModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        subject={`destination “${removing?.name ?? ""}”`}
        consequence="Its subscriptions and messages are deleted with it."
        onConfirm={() => remove.mutateAsync(removing?.id ?? 0)}
      />
    </Stack>
  );
}
