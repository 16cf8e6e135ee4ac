import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  Tooltip,
} from "@mantine/core";
import { useState } from "react";
import { FormError } from "@/components/form-error";
import { QueryState } from "@/components/query-state";
import {
  type Team,
  useAddTeamMember,
  useRemoveTeamMember,
  useTeamMembers,
} from "@/features/teams/api/teams";
import { applyServerErrors } from "@/lib/form-errors";
import type { RenderUserPicker } from "@/lib/holders";

interface TeamMembersModalProps {
  team: Team;
  onClose: () => void;
  renderUserPicker: RenderUserPicker;
}

/** Who is in a team: add a user, remove one. The team's project roles and grants are theirs.
 * Members given by their directory groups are marked: the next login puts them back. */
export function TeamMembersModal({ team, onClose, renderUserPicker }: TeamMembersModalProps) {
  const members = useTeamMembers(team.id);
  const add = useAddTeamMember(team.id);
  const remove = useRemoveTeamMember(team.id);
  const [userId, setUserId] = useState<number | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = () => {
    setError(null);
    setPickError(null);
    if (userId === null) {
      setPickError("Pick a user");
      return;
    }
    add.mutate(userId, {
      onSuccess: () => setUserId(null),
      onError: (failure) => {
        const picker = {
          getValues: () => ({ user_id: null }),
          setFieldError: (_path: string, message: unknown) => setPickError(String(message)),
        };
        setError(applyServerErrors(picker, failure));
      },
    });
  };

  return (
    <Modal opened onClose={onClose} title={`Members of “${team.name}”`} size="lg">
      <Stack>
        <Group align="flex-end" wrap="wrap">
          {renderUserPicker({ value: userId, onChange: setUserId, error: pickError })}
          <Button onClick={submit} loading={add.isPending}>
            Add to team
          </Button>
        </Group>
        <FormError message={error} />
        <QueryState
          query={members}
          loading="Loading members"
          failed="Could not load the members"
          small
        >
          {(list) =>
            list.length === 0 ? (
              <Text c="dimmed">Nobody in this team yet.</Text>
            ) : (
              <Table aria-label="Team members" verticalSpacing="xs">
                <Table.Tbody>
                  {list.map((member) => (
                    <Table.Tr key={member.user_id}>
                      <Table.Td>
                        {member.username}
                        {member.display_name && (
                          <Text span size="xs" c="dimmed">
                            {" "}
                            {member.display_name}
                          </Text>
                        )}
                        {member.synced && (
                          <Tooltip label="Given by their directory groups at login; removing them here lasts until their next login">
                            <Badge ml="xs" size="xs" variant="light">
                              from directory
                            </Badge>
                          </Tooltip>
                        )}
                      </Table.Td>
                      <Table.Td ta="right">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Remove ${member.username}`}
                          loading={remove.isPending && remove.variables === member.user_id}
                          onClick={() =>
                            remove.mutate(member.user_id, {
                              onError: (failure) => setError(failure.message),
                            })
                          }
                        >
                          ✕
                        </ActionIcon>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )
          }
        </QueryState>
      </Stack>
    </Modal>
  );
}
