import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Table,
  TagsInput,
  Text,
} from "@mantine/core";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { FormError } from "@/components/form-error";
import {
  type GrantPermission,
  useGrantMutations,
  useGrants,
} from "@/features/templates/api/grants";
import { hostEntries, hostsLabel } from "@/features/templates/lib/host-scope";
import { type RenderHolderPicker, useHolderForm } from "@/lib/holders";
import { ActionsHeader } from "@/components/row-actions";

type Template = Schemas["TemplateRead"];

const PERMISSIONS: { value: GrantPermission; label: string }[] = [
  { value: "run", label: "Run" },
  { value: "view", label: "View" },
];

interface GrantsModalProps {
  projectId: number;
  template: Template;
  /** may add, change and remove grants (project:members) */
  canManage: boolean;
  renderHolderPicker: RenderHolderPicker;
  onClose: () => void;
}

/** Who may see or run this one template without a project role. */
export function GrantsModal(props: GrantsModalProps) {
  const { projectId, template, canManage, renderHolderPicker, onClose } = props;
  const grants = useGrants(projectId, template.id);
  const { create, update, remove } = useGrantMutations(projectId, template.id);
  const [permission, setPermission] = useState<GrantPermission>("run");
  const [hosts, setHosts] = useState<string[]>([]);
  const holderForm = useHolderForm();

  const add = () =>
    holderForm.submit((holder, callbacks) =>
      create.mutate({ ...holder, permission, hosts: hostEntries(hosts) }, callbacks),
    );

  return (
    <Modal opened onClose={onClose} title={`Access to “${template.name}”`} size="lg">
      <Stack>
        <Text size="sm" c="dimmed">
          A grant lets a user or a team see (view) or launch (run) this template only, beside any
          project role they hold. A run grant may name hosts (host patterns or groups): that
          grantee&apos;s launches then reach those hosts only.
        </Text>
        {grants.error && (
          <Alert color="red" title="Could not load the grants">
            {grants.error.message}
          </Alert>
        )}
        {grants.data && grants.data.length === 0 && <Text size="sm">No grants.</Text>}
        {grants.data && grants.data.length > 0 && (
          <Table aria-label="Grants" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Who</Table.Th>
                <Table.Th>Permission</Table.Th>
                <Table.Th>Hosts</Table.Th>
                <ActionsHeader />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {grants.data.map((grant) => {
                const who = grant.username ?? `team ${grant.team_name ?? ""}`;
                return (
                  <Table.Tr key={grant.id}>
                    <Table.Td>{who}</Table.Td>
                    <Table.Td>
                      {canManage ? (
                        <SegmentedControl
                          size="xs"
                          aria-label={`Permission of ${who}`}
                          data={PERMISSIONS}
                          value={grant.permission}
                          onChange={(value) =>
                            update.mutate(
                              { grantId: grant.id, permission: value as GrantPermission },
                              { onError: (error) => holderForm.showError(error.message) },
                            )
                          }
                        />
                      ) : (
                        grant.permission
                      )}
                    </Table.Td>
                    <Table.Td>
                      {canManage && grant.permission === "run" ? (
                        <TagsInput
                          size="xs"
                          aria-label={`Hosts of ${who}`}
                          placeholder={grant.hosts.length > 0 ? undefined : "every host"}
                          value={grant.hosts}
                          onChange={(value) =>
                            update.mutate(
                              { grantId: grant.id, hosts: hostEntries(value) },
                              { onError: (error) => holderForm.showError(error.message) },
                            )
                          }
                        />
                      ) : (
                        <Text size="sm">
                          {grant.permission === "run" ? hostsLabel(grant.hosts) : "—"}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td ta="right">
                      {canManage && (
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Remove the grant of ${who}`}
                          onClick={() =>
                            remove.mutate(grant.id, {
                              onError: (error) => holderForm.showError(error.message),
                            })
                          }
                        >
                          ×
                        </ActionIcon>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        {canManage && (
          <Stack gap="xs">
            <Text fw={500} size="sm">
              Add a grant
            </Text>
            {renderHolderPicker(holderForm.picker)}
            <Group align="flex-end">
              <Select
                label="Permission"
                data={PERMISSIONS}
                value={permission}
                allowDeselect={false}
                w={140}
                onChange={(value) => value && setPermission(value as GrantPermission)}
              />
              {permission === "run" && (
                <TagsInput
                  label="Hosts"
                  description="Host patterns or groups; empty: every host"
                  placeholder={hosts.length > 0 ? undefined : "every host"}
                  value={hosts}
                  onChange={setHosts}
                  w={260}
                />
              )}
              <Button onClick={add} loading={create.isPending}>
                Grant
              </Button>
            </Group>
          </Stack>
        )}
        <FormError message={holderForm.formError} />
      </Stack>
    </Modal>
  );
}
