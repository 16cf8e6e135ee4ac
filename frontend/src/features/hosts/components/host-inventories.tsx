import { Badge, Card, Code, Group, Stack, Text, Title } from "@mantine/core";
import type { Schemas } from "@/api/client";
import { formatDateTime } from "@/lib/format";

type Host = Schemas["HostDetail"];

/** Where the project's inventories list the host: its groups and own variables (secrets
 * masked by the server), as each inventory was last read. */
export function HostInventories({ host }: { host: Host }) {
  if (host.inventories.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        No inventory of this project lists it now; its runs are below.
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      {host.inventories.map((listed) => (
        <Card key={listed.inventory_id} withBorder padding="sm">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Title order={4}>Inventory {listed.inventory}</Title>
            {listed.read_at && (
              <Text size="xs" c="dimmed">
                read {formatDateTime(listed.read_at)}
              </Text>
            )}
          </Group>
          <Group gap={4} mt="xs">
            {listed.groups.length === 0 ? (
              <Text size="sm" c="dimmed">
                ungrouped
              </Text>
            ) : (
              listed.groups.map((group) => (
                <Badge key={group} variant="outline" tt="none">
                  {group}
                </Badge>
              ))
            )}
          </Group>
          {Object.keys(listed.vars).length > 0 && (
            <Code block mt="xs" aria-label={`Variables in ${listed.inventory}`}>
              {Object.entries(listed.vars)
                .map(([name, value]) => `${name}: ${JSON.stringify(value)}`)
                .join("\n")}
            </Code>
          )}
        </Card>
      ))}
    </Stack>
  );
}
