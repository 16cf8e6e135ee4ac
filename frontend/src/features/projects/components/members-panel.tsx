import {
  ActionIcon,
  Alert,
  Button,
  Group,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { ConfirmDeleteModal } from "@/components/confirm-delete-modal";
import { FormError } from "@/components/form-error";
import { useMembers } from "@/features/projects/api/get-members";
import { useRemoveMember } from "@/features/projects/api/remove-member";
import { PROJECT_ROLES, type ProjectRole, useSetMember } from "@/features/projects/api/set-member";
import { applyServerErrors } from "@/lib/form-errors";

type Member = Schemas["MemberRead"];

interface AddMemberValues {
  user_id: number | "";
  role: ProjectRole;
}

function AddMemberForm({ projectId }: { projectId: number }) {
  const setMember = useSetMember(projectId);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<AddMemberValues>({
    mode: "uncontrolled",
    initialValues: { user_id: "", role: "viewer" },
    validate: { user_id: (value) => (value === "" ? "Enter the user's ID" : null) },
  });
  const submit = form.onSubmit(({ user_id, role }) => {
    if (user_id === "") return; // refused by validate above
    setFormError(null);
    // TODO(users API): pick the user by name once the API can list/search users
    setMember.mutate(
      { user_id, role },
      {
        onSuccess: () => form.reset(),
        onError: (error) => setFormError(applyServerErrors(form, error)),
      },
    );
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <Group align="flex-end">
          <NumberInput
            label="User ID"
            allowDecimal={false}
            min={1}
            w={140}
            key={form.key("user_id")}
            {...form.getInputProps("user_id")}
          />
          <Select
            label="Role"
            data={PROJECT_ROLES}
            allowDeselect={false}
            w={160}
            key={form.key("role")}
            {...form.getInputProps("role")}
          />
          <Button type="submit" loading={setMember.isPending}>
            Add or change
          </Button>
        </Group>
        <FormError message={formError} />
      </Stack>
    </form>
  );
}

// Controls show for everyone who can see the project; the server refuses (403, shown on the form)
// those whose role may not manage members. TODO(backend): hide them from ProjectRead's actions.
export function MembersPanel({ projectId }: { projectId: number }) {
  const members = useMembers(projectId);
  const remove = useRemoveMember(projectId);
  const [removing, setRemoving] = useState<Member | null>(null);

  if (members.error) {
    return (
      <Alert color="red" title="Could not load members">
        {members.error.message}
      </Alert>
    );
  }
  return (
    <Stack>
      <AddMemberForm projectId={projectId} />
      <Table.ScrollContainer minWidth={320}>
        <Table aria-label="Members" verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>User</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(members.data ?? []).map((member) => (
              <Table.Tr key={member.user_id}>
                <Table.Td>
                  {member.username}{" "}
                  <Text span size="xs" c="dimmed">
                    #{member.user_id}
                  </Text>
                </Table.Td>
                <Table.Td>{member.role}</Table.Td>
                <Table.Td ta="right">
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${member.username}`}
                    onClick={() => setRemoving(member)}
                  >
                    ×
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {members.data?.length === 0 && <Text c="dimmed">No members.</Text>}
      <ConfirmDeleteModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        subject={`member “${removing?.username ?? ""}”`}
        consequence="They lose access to this project at once."
        onConfirm={() => remove.mutateAsync(removing?.user_id ?? 0)}
      />
    </Stack>
  );
}
