import { Stack, Text, Title } from "@mantine/core";
import { AdminsOnly } from "@/app/routes/admin/admins-only";
import { FreezesPanel } from "@/features/freezes/components/freezes-panel";

/** The instance's freeze windows: every project's launches meet them. */
export function Component() {
  return (
    <Stack>
      <div>
        <Title order={2}>Freezes</Title>
        <Text c="dimmed" size="sm">
          Freeze windows of the whole instance: while one holds, no run starts in any project unless
          who holds freeze:override gives a reason
        </Text>
      </div>
      <AdminsOnly refusal="Only a global admin keeps the instance's freeze windows.">
        {() => <FreezesPanel canWrite />}
      </AdminsOnly>
    </Stack>
  );
}
