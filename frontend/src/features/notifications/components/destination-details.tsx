import { Badge, Button, Group, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { DeleteButton } from "@/components/confirm-delete-modal";
import {
  useDeleteDestination,
  useDestination,
  useTestDestination,
} from "@/features/notifications/api/destinations";
import { DestinationFormModal } from "@/features/notifications/components/destination-form-modal";
import { MessagesList } from "@/features/notifications/components/messages-list";
import { KINDS, destinationTarget } from "@/features/notifications/lib/destination-form";
import { RecordHeader } from "@/components/record-header";
import { QueryState } from "@/components/query-state";

interface DestinationDetailsProps {
  projectId: number;
  destinationId: number;
  canWrite: boolean;
  onDeleted: () => void;
}

/** A destination, a "send test" button and its messages with every attempt. */
export function DestinationDetails(props: DestinationDetailsProps) {
  const { projectId, destinationId, canWrite, onDeleted } = props;
  const destination = useDestination(projectId, destinationId);
  const test = useTestDestination(projectId);
  const remove = useDeleteDestination(projectId);
  const [editing, setEditing] = useState(false);

  return (
    <QueryState
      query={destination}
      loading="Loading the destination"
      notFound="Destination not found"
    >
      {(d) => (
        <Stack>
          <RecordHeader
            title={d.name}
            badges={
              <>
                <Badge variant="outline">
                  {KINDS.find((k) => k.value === d.kind)?.label ?? d.kind}
                </Badge>
                {d.enabled ? <Badge color="green">On</Badge> : <Badge color="gray">Off</Badge>}
              </>
            }
            actions={
              canWrite && (
                <Group gap="xs">
                  <Button
                    loading={test.isPending}
                    onClick={() =>
                      test.mutate(d.id, {
                        onSuccess: () =>
                          notifications.show({
                            message: "Test message queued: see its attempts below",
                          }),
                        onError: (error) =>
                          notifications.show({ color: "red", message: error.message }),
                      })
                    }
                  >
                    Send test
                  </Button>
                  <Button variant="default" onClick={() => setEditing(true)}>
                    Edit
                  </Button>
                  <DeleteButton
                    subject={`destination “${d.name}”`}
                    consequence="Its subscriptions and messages are deleted with it."
                    onConfirm={() => remove.mutateAsync(d.id).then(onDeleted)}
                  />
                </Group>
              )
            }
          >
            <Text size="sm" c="dimmed" style={{ wordBreak: "break-all" }}>
              {destinationTarget(d)}
              {d.secret_key_name ? ` · secret from key “${d.secret_key_name}”` : ""}
            </Text>
            {d.description && <Text size="sm">{d.description}</Text>}
          </RecordHeader>
          <Title order={4}>Messages</Title>
          <MessagesList projectId={projectId} destinationId={d.id} />
          {editing && (
            <DestinationFormModal
              projectId={projectId}
              destination={d}
              onClose={() => setEditing(false)}
            />
          )}
        </Stack>
      )}
    </QueryState>
  );
}
