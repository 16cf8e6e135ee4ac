import { Stack, Title } from "@mantine/core";
import { AdminsOnly } from "@/app/routes/admin/admins-only";
import { UsersPanel } from "@/features/auth/components/users-panel";

export function Component() {
  return (
    <Stack>
      <Title order={2}>Users</Title>
      <AdminsOnly>{(meId) => <UsersPanel meId={meId} />}</AdminsOnly>
    </Stack>
  );
}
