import { Table } from "@mantine/core";
import { runColor } from "@/features/metrics/lib/compare";

/** The head of a table of compared runs: what a row is ("Host"), then each run in its color. */
export function CompareHead({
  label,
  width,
  runIds,
}: {
  label: string;
  /** the first column's width */
  width?: number;
  runIds: readonly number[];
}) {
  return (
    <Table.Thead>
      <Table.Tr>
        <Table.Th w={width}>{label}</Table.Th>
        {runIds.map((id, i) => (
          <Table.Th key={id} c={runColor(i)}>
            #{id}
          </Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}
