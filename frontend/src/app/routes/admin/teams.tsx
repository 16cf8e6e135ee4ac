import { Stack, Title } from "@mantine/core";
import { AdminsOnly } from "@/app/routes/admin/admins-only";
import { UserPicker } from "@/features/auth/components/user-picker";
import { TeamsPanel } from "@/features/teams/components/teams-panel";

export function Component() {
  return (
    <Stack>
      <Title order={2}>Teams</Title>
      <AdminsOnly>
        {() => <TeamsPanel renderUserPicker={(props) => <UserPicker {...props} />} />}
      </AdminsOnly>
    </Stack>
  );
}
