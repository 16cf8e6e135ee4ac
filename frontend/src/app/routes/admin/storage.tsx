import { Stack, Text, Title } from "@mantine/core";
import { AdminsOnly } from "@/app/routes/admin/admins-only";
import { StoragePanel } from "@/features/storage/components/storage-panel";

/** The database's size and what retention does about it (GET /storage). */
export function Component() {
  return (
    <Stack>
      <div>
        <Title order={2}>Storage</Title>
        <Text c="dimmed" size="sm">
          The database: its size, its biggest tables, the retention periods and the last prune
        </Text>
      </div>
      <AdminsOnly refusal="Only a global admin sees the database's size and retention.">
        {() => <StoragePanel />}
      </AdminsOnly>
    </Stack>
  );
}
