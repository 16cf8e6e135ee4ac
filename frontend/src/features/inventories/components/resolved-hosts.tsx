import { Badge, Code, Group, Stack, Table, Text } from "@mantine/core";
import type { Schemas } from "@/api/client";

type Resolved = Schemas["ResolvedRead"];

// Ansible's implicit groups say nothing the table doesn't
const IMPLICIT = new Set(["all", "ungrouped"]);

function vars(values: Record<string, unknown>): string {
  const entries = Object.entries(values);
  return entries.length === 0 ? "" : entries.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ");
}

/** Hosts and groups as Ansible resolved them (secret-looking variables come masked). */
export function ResolvedHosts({ resolved }: { resolved: Resolved }) {
  const groups = resolved.groups.filter((group) => !IMPLICIT.has(group.name));
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500} role="status">
        {resolved.hosts.length} {resolved.hosts.length === 1 ? "host" : "hosts"} in {groups.length}{" "}
        {groups.length === 1 ? "group" : "groups"}
      </Text>
      {groups.length > 0 && (
        <Group gap={6} aria-label="Groups" role="list">
          {groups.map((group) => (
            <Badge
              key={group.name}
              variant="light"
              role="listitem"
              style={{ textTransform: "none" }}
            >
              {group.name} · {group.hosts.length}
              {group.children.length > 0 && ` · ${group.children.join(", ")}`}
            </Badge>
          ))}
        </Group>
      )}
      {resolved.hosts.length > 0 && (
        <Table.ScrollContainer minWidth={320} mah={320}>
          <Table aria-label="Resolved hosts" striped verticalSpacing={4} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Host</Table.Th>
                <Table.Th>Groups</Table.Th>
                <Table.Th visibleFrom="sm">Variables</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {resolved.hosts.map((host) => (
                <Table.Tr key={host.name}>
                  <Table.Td ff="monospace">{host.name}</Table.Td>
                  <Table.Td>{host.groups.filter((g) => !IMPLICIT.has(g)).join(", ")}</Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Code style={{ wordBreak: "break-all", whiteSpace: "normal" }}>
                      {vars(host.vars)}
                    </Code>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
