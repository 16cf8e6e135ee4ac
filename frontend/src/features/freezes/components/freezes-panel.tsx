import { Badge, Button, Group, Stack, Table, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import { FormModal } from "@/components/form-modal";
import { LabelBadges, LabelsInput } from "@/components/labels";
import { QueryState } from "@/components/query-state";
import {
  type FreezeWindow,
  type FreezeWindowCreate,
  useCreateFreezeWindow,
  useDeleteFreezeWindow,
  useFreezeWindows,
} from "@/features/freezes/api/freezes";
import { formatDateTime } from "@/lib/format";
import { useServerErrors } from "@/lib/form-errors";

function Standing({ window }: { window: FreezeWindow }) {
  if (window.active)
    return <Badge color="red">until {formatDateTime(window.active.ends_at)}</Badge>;
  if (window.coming)
    return <Badge color="yellow">next {formatDateTime(window.coming.starts_at)}</Badge>;
  return <Badge color="gray">over</Badge>;
}

function NewWindow({ projectId, onClose }: { projectId?: number; onClose: () => void }) {
  const create = useCreateFreezeWindow(projectId);
  const form = useForm<FreezeWindowCreate>({
    mode: "controlled",
    initialValues: {
      name: "",
      description: "",
      starts_local: "",
      ends_local: "",
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
      rrule: "",
      labels: [],
    },
  });
  const serverErrors = useServerErrors(form);
  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    create.mutate(
      { ...values, rrule: values.rrule || null },
      { onSuccess: onClose, onError: (error) => serverErrors.show(error) },
    );
  });
  return (
    <FormModal
      onClose={onClose}
      title="New freeze window"
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel="Create window"
      pending={create.isPending}
    >
      <TextInput label="Name" required {...form.getInputProps("name")} />
      <TextInput
        label="Starts"
        type="datetime-local"
        required
        description="on the window's clock"
        {...form.getInputProps("starts_local")}
      />
      <TextInput
        label="Ends"
        type="datetime-local"
        required
        description="exclusive; each repetition lasts as long"
        {...form.getInputProps("ends_local")}
      />
      <TextInput label="Time zone" required {...form.getInputProps("timezone")} />
      <TextInput
        label="Repeats (RRULE)"
        placeholder="FREQ=YEARLY"
        description="empty: once"
        {...form.getInputProps("rrule")}
      />
      <LabelsInput
        label="Template labels"
        description="empty: every launch; else only templates carrying one of them"
        placeholder="prod, db…"
        {...form.getInputProps("labels")}
      />
    </FormModal>
  );
}

/** Freeze windows of the instance (`projectId` undefined) or of a project: while one holds,
 * launches are refused unless who holds freeze:override gives a reason. */
export function FreezesPanel({ projectId, canWrite }: { projectId?: number; canWrite: boolean }) {
  const windows = useFreezeWindows(projectId);
  const remove = useDeleteFreezeWindow(projectId);
  const [creating, setCreating] = useState(false);
  return (
    <Stack>
      {canWrite && (
        <Group justify="end">
          <Button onClick={() => setCreating(true)}>New freeze window</Button>
        </Group>
      )}
      <QueryState query={windows} loading="Loading the freeze windows">
        {(page) =>
          page.items.length === 0 ? (
            <Text c="dimmed">No freeze window.</Text>
          ) : (
            <Table.ScrollContainer minWidth={600}>
              <Table aria-label="Freeze windows">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>First</Table.Th>
                    <Table.Th>Repeats</Table.Th>
                    <Table.Th>Freezes</Table.Th>
                    <Table.Th>Now</Table.Th>
                    {canWrite && <Table.Th />}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {page.items.map((w) => (
                    <Table.Tr key={w.id}>
                      <Table.Td>{w.name}</Table.Td>
                      <Table.Td>
                        {w.starts_local.replace("T", " ")} → {w.ends_local.replace("T", " ")} (
                        {w.timezone})
                      </Table.Td>
                      <Table.Td>{w.rrule || "once"}</Table.Td>
                      <Table.Td>
                        {w.labels.length === 0 ? (
                          <Text size="sm">every launch</Text>
                        ) : (
                          <LabelBadges labels={w.labels} />
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Standing window={w} />
                      </Table.Td>
                      {canWrite && (
                        <Table.Td>
                          <Button
                            size="xs"
                            variant="subtle"
                            color="red"
                            aria-label={`Delete ${w.name}`}
                            loading={remove.isPending && remove.variables === w.id}
                            onClick={() => remove.mutate(w.id)}
                          >
                            Delete
                          </Button>
                        </Table.Td>
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </QueryState>
      {creating && <NewWindow projectId={projectId} onClose={() => setCreating(false)} />}
    </Stack>
  );
}
