import { Alert, Anchor, Table, Text } from "@mantine/core";
import type { HostRecap } from "@/features/runs/api/get-run-output";

const COUNTS = ["ok", "changed", "failed", "unreachable", "skipped", "rescued", "ignored"] as const;
const COLORS: Partial<Record<(typeof COUNTS)[number], string>> = {
  ok: "green",
  changed: "yellow",
  failed: "red",
  unreachable: "red",
  skipped: "cyan",
};

interface RunRecapProps {
  hosts: readonly HostRecap[] | undefined;
  error: Error | null;
  onShowHost: (host: string) => void;
}

/** Per-host counts, failed hosts first (the server's order). */
export function RunRecap({ hosts, error, onShowHost }: RunRecapProps) {
  if (error) {
    return (
      <Alert color="red" title="Could not load the recap">
        {error.message}
      </Alert>
    );
  }
  if (!hosts) return null;
  if (hosts.length === 0) return <Text c="dimmed">No host has reported yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label="Host recap" verticalSpacing={4} striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Host</Table.Th>
            {COUNTS.map((count) => (
              <Table.Th key={count} ta="right">
                {count}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {hosts.map((host) => (
            <Table.Tr
              key={host.host}
              bg={host.failed + host.unreachable > 0 ? "var(--mantine-color-red-light)" : undefined}
            >
              <Table.Td>
                <Anchor
                  component="button"
                  type="button"
                  onClick={() => onShowHost(host.host)}
                  title={`Show the output of ${host.host}`}
                >
                  {host.host}
                </Anchor>
              </Table.Td>
              {COUNTS.map((count) => (
                <Table.Td
                  key={count}
                  ta="right"
                  c={host[count] > 0 ? COLORS[count] : "dimmed"}
                  fw={
                    host[count] > 0 && (count === "failed" || count === "unreachable")
                      ? 700
                      : undefined
                  }
                >
                  {host[count]}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
