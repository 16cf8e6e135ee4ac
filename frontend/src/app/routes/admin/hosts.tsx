import { Stack, Text, Title } from "@mantine/core";
import { AdminsOnly } from "@/app/routes/admin/admins-only";
import { HostsPanel } from "@/features/hosts/components/hosts-panel";
import { InstanceHealth } from "@/features/hosts/components/instance-health";

/** Every project's hosts (GET /hosts) and their health (GET /hosts/health). */
export function Component() {
  return (
    <Stack>
      <div>
        <Title order={2}>Hosts</Title>
        <Text c="dimmed" size="sm">
          Every host of every project: from the inventories, and every host a run reached
        </Text>
      </div>
      <AdminsOnly refusal="Only a global admin sees the hosts of every project.">
        {() => (
          <Stack gap="lg">
            <InstanceHealth />
            <HostsPanel />
          </Stack>
        )}
      </AdminsOnly>
    </Stack>
  );
}
