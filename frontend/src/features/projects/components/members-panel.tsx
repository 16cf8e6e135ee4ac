import { ActionIcon, Alert, Badge, Button, Group, Select, Stack, Table, Text } from "@mantine/core";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { ConfirmDeleteModal } from "@/components/confirm-delete-modal";
import { FormError } from "@/components/form-error";
import { useMembers } from "@/features/projects/api/get-members";
import { useRemoveMember } from "@/features/projects/api/remove-member";
import { PROJECT_ROLES, type ProjectRole, useSetMember } from "@/features/projects/api/set-member";
import { type Holder, type RenderHolderPicker, useHolderForm } from "@/lib/holders";
import { ActionsHeader } from "@/components/row-actions";

type Member = Schemas["MemberRead"];

const holderOf = (member: Member): Holder =>
  member.user_id !== null ? { user_id: member.user_id } : { team_id: member.team_id ?? 0 };
const nameOf = (member: Member) => member.username ?? `team ${member.team_name ?? ""}`;

function AddMemberForm(props: { projectId: number; renderHolderPicker: RenderHolderPicker }) {
  const setMember = useSetMember(props.projectId);
  const [role, setRole] = useState<ProjectRole>("viewer");
  const holderForm = useHolderForm();

  const submit = () =>
    holderForm.submit((holder, callbacks) => setMember.mutate({ ...holder, role }, callbacks));
  return (
    <Stack gap="xs">
      {props.renderHolderPicker(holderForm.picker)}
      <Group align="flex-end">
        <Select
          label="Role"
          data={PROJECT_ROLES}
          allowDeselect={false}
          w={160}
          value={role}
          onChange={(value) => value && setRole(value as ProjectRole)}
        />
        <Button onClick={submit} loading={setMember.isPending}>
          Add or change
        </Button>
      </Group>
      <FormError message={holderForm.formError} />
    </Stack>
  );
}

interface MembersPanelProps {
  projectId: number;
  /** may change roles (project:members) */
  canManage: boolean;
  renderHolderPicker: RenderHolderPicker;
}

export function MembersPanel({ projectId, canManage, renderHolderPicker }: MembersPanelProps) {
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
      {canManage && <AddMemberForm projectId={projectId} renderHolderPicker={renderHolderPicker} />}
      <Table.ScrollContainer minWidth={320}>
        <Table aria-label="Members" verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>User or team</Table.Th>
              <Table.Th>Role</Table.Th>
              <ActionsHeader />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(members.data ?? []).map((member) => (
              <Table.Tr key={member.user_id ?? `team-${member.team_id ?? 0}`}>
                <Table.Td>
                  {member.user_id !== null ? (
                    <>
                      {member.username}{" "}
                      <Text span size="xs" c="dimmed">
                        #{member.user_id}
                      </Text>
                    </>
                  ) : (
                    <>
                      <Badge variant="light" size="sm" mr={6}>
                        team
                      </Badge>
                      {member.team_name}
                    </>
                  )}
                </Table.Td>
                <Table.Td>{member.role}</Table.Td>
                <Table.Td ta="right">
                  {canManage && (
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove ${nameOf(member)}`}
                      onClick={() => setRemoving(member)}
                    >
                      ×
                    </ActionIcon>
                  )}
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
        subject={`member “${removing ? nameOf(removing) : ""}”`}
        consequence="They lose this role at once (grants on templates stay)."
        onConfirm={() => remove.mutateAsync(removing ? holderOf(removing) : { user_id: 0 })}
      />
    </Stack>
  );
}
