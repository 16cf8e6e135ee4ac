import { Badge, Code, Group, Stack, Text } from "@mantine/core";
import type { Schemas } from "@/api/client";
import { type Column, ColumnsTable } from "@/components/columns-table";

type Resolved = Schemas["ResolvedRead"];

// Ansible's implicit groups say nothing the table doesn't
const IMPLICIT = new Set(["all", "ungrouped"]);

function vars(values: Record<string, unknown>): string {
  const entries = Object.entries(values);
  return entries.length === 0 ? "" : entries.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ");
}

const HOST_COLUMNS: readonly Column<Resolved["hosts"][number]>[] = [
  { key: "host", header: "Host", td: { ff: "monospace" }, cell: (host) => host.name },
  {
    key: "groups",
    header: "Groups",
    cell: (host) => host.groups.filter((g) => !IMPLICIT.has(g)).join(", "),
  },
  {
    key: "vars",
    header: "Variables",
    visibleFrom: "sm",
    cell: (host) => (
      <Code style={{ wordBreak: "break-all", whiteSpace: "normal" }}>{vars(host.vars)}</Code>
    ),
  },
];

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
        <ColumnsTable
          label="Resolved hosts"
          columns={HOST_COLUMNS}
          rows={resolved.hosts}
          rowKey={(host) => host.name}
          maxHeight={320}
          striped
          verticalSpacing={4}
          fz="sm"
        />
      )}
    </Stack>
  );
}
