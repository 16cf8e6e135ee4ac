import { Button, Table, Text } from "@mantine/core";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { CompareHead } from "@/features/metrics/components/compare-head";
import { plural } from "@/lib/format";

interface ParametersDiffProps {
  rows: readonly Schemas["ParamRow"][];
  runIds: readonly number[];
}

/** The runs' parameters side by side: those that differ first and highlighted, the equal ones
 * behind a toggle. */
export function ParametersDiff({ rows, runIds }: ParametersDiffProps) {
  const [showEqual, setShowEqual] = useState(false);
  const differing = rows.filter((r) => r.differs);
  const equal = rows.filter((r) => !r.differs);
  const shown = showEqual ? [...differing, ...equal] : differing;
  return (
    <>
      {differing.length === 0 && (
        <Text size="sm" c="dimmed">
          Every parameter is the same in these runs.
        </Text>
      )}
      {shown.length > 0 && (
        <Table.ScrollContainer minWidth={140 + 140 * runIds.length}>
          <Table aria-label="Parameters" verticalSpacing={4} fz="sm" withTableBorder>
            <CompareHead label="Parameter" width={150} runIds={runIds} />
            <Table.Tbody>
              {shown.map((row) => (
                <Table.Tr
                  key={row.name}
                  data-differs={row.differs || undefined}
                  bg={row.differs ? "var(--mantine-color-yellow-light)" : undefined}
                >
                  <Table.Th scope="row" fw={row.differs ? 700 : 500}>
                    {row.name}
                  </Table.Th>
                  {row.values.map((value, i) => (
                    <Table.Td
                      key={runIds[i]}
                      ff={row.name.startsWith("vars.") ? "monospace" : undefined}
                      style={{ wordBreak: "break-word" }}
                    >
                      {value}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {equal.length > 0 && (
        <Button variant="subtle" size="compact-sm" onClick={() => setShowEqual((v) => !v)}>
          {showEqual
            ? "Hide the equal parameters"
            : `Show ${plural(equal.length, "equal parameter")}`}
        </Button>
      )}
    </>
  );
}
