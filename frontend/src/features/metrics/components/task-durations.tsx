import { Button, Group, SegmentedControl, Table, Text } from "@mantine/core";
import { useMemo, useState } from "react";
import type { ComparedTask } from "@/features/metrics/api/get-runs-compared";
import {
  deltaColor,
  formatDelta,
  formatSeconds,
  sortedTasks,
  taskKey,
  runColor,
} from "@/features/metrics/lib/compare";

const SHOWN = 100; // rows before "show all"

interface TaskDurationsProps {
  tasks: readonly ComparedTask[];
  runIds: readonly number[];
  durations: readonly (number | null)[];
  truncated: boolean;
  hovered: string | null;
  onHover: (key: string | null) => void;
}

export function taskLabel(t: Pick<ComparedTask, "play" | "role" | "task" | "occurrence">) {
  const name = t.role ? `${t.role} : ${t.task}` : t.task;
  return t.occurrence > 1 ? `${name} (#${t.occurrence})` : name;
}

function Delta({ seconds, percent }: { seconds: number | null; percent: number | null }) {
  if (seconds === null) return null;
  return (
    <Text span size="xs" c={deltaColor(seconds)} style={{ whiteSpace: "nowrap" }}>
      {formatDelta(seconds, percent)}
    </Text>
  );
}

/** Seconds of each task in each run, aligned by play, role, name and occurrence, with the
 * change against the baseline (the first run); biggest regressions first, or playbook order. */
export function TaskDurations({
  tasks,
  runIds,
  durations,
  truncated,
  hovered,
  onHover,
}: TaskDurationsProps) {
  const [order, setOrder] = useState<"regressions" | "playbook">("regressions");
  const [all, setAll] = useState(false);
  const sorted = useMemo(() => sortedTasks(tasks, order), [tasks, order]);
  const shown = all ? sorted : sorted.slice(0, SHOWN);
  const base = durations[0] ?? null;
  const plays = new Set(tasks.map((t) => t.play)).size;
  return (
    <>
      <Group justify="space-between" wrap="wrap">
        <SegmentedControl
          size="xs"
          aria-label="Order of the tasks"
          value={order}
          onChange={(value) => setOrder(value === "playbook" ? "playbook" : "regressions")}
          data={[
            { value: "regressions", label: "Biggest regressions first" },
            { value: "playbook", label: "Playbook order" },
          ]}
        />
        <Text size="xs" c="dimmed">
          Change against the baseline #{runIds[0]}
        </Text>
      </Group>
      <Table.ScrollContainer minWidth={200 + 130 * runIds.length}>
        <Table aria-label="Task durations" verticalSpacing={4} fz="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Task</Table.Th>
              {runIds.map((id, i) => (
                <Table.Th key={id} ta="right" c={runColor(i)}>
                  #{id}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((t) => {
              const key = taskKey(t);
              return (
                <Table.Tr
                  key={key}
                  data-active={hovered === key || undefined}
                  bg={hovered === key ? "var(--mantine-color-blue-light)" : undefined}
                  onMouseEnter={() => onHover(key)}
                  onMouseLeave={() => onHover(null)}
                >
                  <Table.Th scope="row" fw={500}>
                    {taskLabel(t)}
                    {plays > 1 && (
                      <Text size="xs" c="dimmed">
                        {t.play}
                      </Text>
                    )}
                  </Table.Th>
                  {t.cells.map((cell, i) => (
                    <Table.Td key={runIds[i]} ta="right">
                      {cell ? (
                        <>
                          <Text span size="sm" c={cell.failed ? "red" : undefined}>
                            {formatSeconds(cell.seconds)}
                          </Text>
                          {i > 0 && (
                            <>
                              <br />
                              <Delta
                                seconds={t.delta_seconds[i] ?? null}
                                percent={t.delta_percent[i] ?? null}
                              />
                            </>
                          )}
                        </>
                      ) : (
                        <Text span size="xs" c="dimmed">
                          not run
                        </Text>
                      )}
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th scope="row">Total (the whole run)</Table.Th>
              {durations.map((seconds, i) => {
                const delta = i > 0 && base !== null && seconds !== null ? seconds - base : null;
                return (
                  <Table.Td key={runIds[i]} ta="right" fw={700}>
                    {formatSeconds(seconds)}
                    {delta !== null && (
                      <>
                        <br />
                        <Delta seconds={delta} percent={base ? (delta / base) * 100 : null} />
                      </>
                    )}
                  </Table.Td>
                );
              })}
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
      {!all && sorted.length > SHOWN && (
        <Button variant="subtle" size="compact-sm" onClick={() => setAll(true)}>
          Show all {sorted.length.toLocaleString()} tasks
        </Button>
      )}
      {truncated && (
        <Text size="xs" c="dimmed">
          These runs have more tasks than can be compared at once; the first ones are shown.
        </Text>
      )}
    </>
  );
}
