import { Group, Table, Text } from "@mantine/core";
import type { Schemas } from "@/api/client";
import { CompareHead } from "@/features/metrics/components/compare-head";

const COUNTS = [
  ["ok", "ok", undefined],
  ["changed", "changed", "yellow"],
  ["failed", "failed", "red"],
  ["unreachable", "unreach.", "red"],
  ["skipped", "skipped", "dimmed"],
] as const;

function Recap({ recap }: { recap: Schemas["HostRecap"] | null }) {
  if (!recap) {
    return (
      <Text size="xs" c="dimmed">
        not in this run
      </Text>
    );
  }
  return (
    <Group gap={6} wrap="wrap">
      {COUNTS.map(([key, label, color]) => (
        <Text
          key={key}
          size="xs"
          c={recap[key] > 0 ? color : "dimmed"}
          fw={recap[key] > 0 && color === "red" ? 700 : undefined}
        >
          {label} {recap[key]}
        </Text>
      ))}
    </Group>
  );
}

/** Each host's recap in each run, hosts with failures first. */
export function HostsSideBySide({
  hosts,
  runIds,
  truncated,
}: {
  hosts: readonly Schemas["HostRow"][];
  runIds: readonly number[];
  truncated: boolean;
}) {
  if (hosts.length === 0) return <Text c="dimmed">No host recap was recorded.</Text>;
  return (
    <>
      <Table.ScrollContainer minWidth={120 + 170 * runIds.length}>
        <Table aria-label="Hosts" verticalSpacing={4} withTableBorder>
          <CompareHead label="Host" runIds={runIds} />
          <Table.Tbody>
            {hosts.map((row) => (
              <Table.Tr
                key={row.host}
                bg={row.differs ? "var(--mantine-color-yellow-light)" : undefined}
              >
                <Table.Th scope="row" ff="monospace" fz="sm">
                  {row.host}
                </Table.Th>
                {row.recaps.map((recap, i) => (
                  <Table.Td key={runIds[i]}>
                    <Recap recap={recap} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {truncated && (
        <Text size="xs" c="dimmed">
          Only the first {hosts.length.toLocaleString()} hosts are shown.
        </Text>
      )}
    </>
  );
}
