import { ActionIcon, Badge, Group, Menu, Stack, Text, TextInput } from "@mantine/core";
import { useDebouncedValue, useDisclosure } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { ConfirmModal } from "@/components/confirm-modal";
import type { Column } from "@/components/columns-table";
import { PagedTable } from "@/components/paged-table";
import { SectionToolbar } from "@/components/section-toolbar";
import { type User, useResetTotp, useUpdateUser, useUsers } from "@/features/auth/api/users";
import {
  CreateUserModal,
  EditUserModal,
  ResetPasswordModal,
} from "@/features/auth/components/user-modals";
import { usePageParam } from "@/hooks/use-page-param";
import { formatDateTime } from "@/lib/format";

type Pending = { kind: "edit" | "password" | "disable" | "totp"; user: User } | null;

/** Admins: every user, their role and state, and what can be done to each. */
export function UsersPanel({ meId }: { meId: number }) {
  const [search, setSearch] = useState("");
  const [q] = useDebouncedValue(search.trim(), 250);
  const { page, setPage, limit, offset } = usePageParam(50);
  const users = useUsers(q, limit, offset);
  const update = useUpdateUser();
  const resetTotp = useResetTotp();
  const [creating, create] = useDisclosure(false);
  const [pending, setPending] = useState<Pending>(null);

  const change = (user: User, body: { is_admin?: boolean; is_active?: boolean }, done: string) =>
    update.mutate(
      { id: user.id, ...body },
      {
        onSuccess: () => notifications.show({ color: "green", message: done }),
        onError: (error) =>
          notifications.show({ color: "red", title: "Not changed", message: error.message }),
      },
    );

  const columns: Column<User>[] = [
    {
      key: "name",
      header: "User",
      cell: (user) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {user.username}
            {user.id === meId && (
              <Text span size="xs" c="dimmed">
                {" "}
                (you)
              </Text>
            )}
          </Text>
          {user.display_name && (
            <Text size="xs" c="dimmed">
              {user.display_name}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: "email",
      header: "E-mail",
      visibleFrom: "md",
      cell: (user) => <Text size="sm">{user.email}</Text>,
    },
    {
      key: "state",
      header: "Role",
      cell: (user) => (
        <Group gap={4}>
          {user.is_admin && <Badge color="grape">admin</Badge>}
          {!user.is_active && <Badge color="gray">disabled</Badge>}
          {user.totp_enabled && (
            <Badge color="teal" variant="light" title="Two-factor authentication is on">
              2FA
            </Badge>
          )}
          {user.auth_source !== "local" && (
            <Badge
              color="blue"
              variant="light"
              title="Signs in through a directory: no Steward password; teams follow their groups"
            >
              {user.auth_source === "ldap" ? "LDAP" : "SSO"}
            </Badge>
          )}
          {user.is_active && !user.is_admin && (
            <Text size="sm" c="dimmed">
              user
            </Text>
          )}
        </Group>
      ),
    },
    {
      key: "created",
      header: "Created",
      visibleFrom: "sm",
      cell: (user) => <Text size="sm">{formatDateTime(user.created_at)}</Text>,
    },
    {
      key: "actions",
      header: "",
      cell: (user) => (
        <Group justify="flex-end">
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={`Actions for ${user.username}`}>
                ⋯
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => setPending({ kind: "edit", user })}>
                Edit name and e-mail
              </Menu.Item>
              {user.auth_source === "local" && (
                <Menu.Item onClick={() => setPending({ kind: "password", user })}>
                  Reset password
                </Menu.Item>
              )}
              {user.totp_enabled && (
                <Menu.Item onClick={() => setPending({ kind: "totp", user })}>
                  Reset two-factor
                </Menu.Item>
              )}
              <Menu.Item
                onClick={() =>
                  change(
                    user,
                    { is_admin: !user.is_admin },
                    user.is_admin
                      ? `“${user.username}” is no longer an admin`
                      : `“${user.username}” is now an admin`,
                  )
                }
              >
                {user.is_admin ? "Remove admin" : "Make admin"}
              </Menu.Item>
              {user.is_active ? (
                <Menu.Item color="red" onClick={() => setPending({ kind: "disable", user })}>
                  Disable
                </Menu.Item>
              ) : (
                <Menu.Item
                  onClick={() =>
                    change(user, { is_active: true }, `“${user.username}” may sign in again`)
                  }
                >
                  Enable
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <SectionToolbar
        description="People who may sign in. Project roles are given in each project's Members."
        actionLabel="New user"
        onAction={create.open}
      />
      <TextInput
        label="Search"
        placeholder="username or name"
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(1);
        }}
        maw={320}
      />
      <PagedTable
        label="Users"
        columns={columns}
        rowKey={(user) => user.id}
        data={users.data}
        isPending={users.isPending}
        error={users.error}
        page={page}
        onPageChange={setPage}
        empty={q ? "No user matches." : "No users yet."}
      />
      <CreateUserModal opened={creating} onClose={create.close} />
      {pending?.kind === "edit" && (
        <EditUserModal user={pending.user} onClose={() => setPending(null)} />
      )}
      {pending?.kind === "password" && (
        <ResetPasswordModal user={pending.user} onClose={() => setPending(null)} />
      )}
      <ConfirmModal
        opened={pending?.kind === "disable"}
        onClose={() => setPending(null)}
        title={`Disable “${pending?.user.username ?? ""}”?`}
        message="They are signed out everywhere and their API tokens are revoked at once. You can enable them again; their tokens stay revoked."
        confirmLabel="Disable"
        onConfirm={() => update.mutateAsync({ id: pending?.user.id ?? 0, is_active: false })}
      />
      <ConfirmModal
        opened={pending?.kind === "totp"}
        onClose={() => setPending(null)}
        title={`Reset two-factor for “${pending?.user.username ?? ""}”?`}
        message="Their authenticator app and recovery codes stop working: their password alone signs them in until they turn two-factor authentication on again. Do this for someone who lost their phone, once you know it is them."
        confirmLabel="Reset two-factor"
        onConfirm={async () => {
          const user = pending?.user;
          if (!user) return;
          await resetTotp.mutateAsync(user.id);
          notifications.show({
            color: "green",
            message: `Two-factor authentication of “${user.username}” is off`,
          });
        }}
      />
    </Stack>
  );
}
