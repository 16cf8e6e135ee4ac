import { Alert, Group, Stack, Table, Text, Title, UnstyledButton } from "@mantine/core";
import { useMemo, useState } from "react";
import type { TimelineEntry } from "@/features/runs/api/get-run-output";
import { buildTimeline, formatSeconds, laneName } from "@/features/runs/lib/timeline";
import classes from "@/features/runs/components/run-timeline.module.css";

// thousands of hosts would be thousands of lanes: the slowest tasks table still covers them
const MAX_LANES = 200;
const SLOWEST = 25;

type SortKey = "duration" | "task" | "host";

function SortHeader(props: {
  label: string;
  sortKey: SortKey;
  sort: { key: SortKey; desc: boolean };
  onSort: (key: SortKey) => void;
}) {
  const active = props.sort.key === props.sortKey;
  return (
    <Table.Th
      aria-sort={active ? (props.sort.desc ? "descending" : "ascending") : "none"}
      ta={props.sortKey === "duration" ? "right" : undefined}
    >
      <UnstyledButton fw={700} fz="sm" onClick={() => props.onSort(props.sortKey)}>
        {props.label} {active ? (props.sort.desc ? "↓" : "↑") : ""}
      </UnstyledButton>
    </Table.Th>
  );
}

interface RunTimelineProps {
  entries: readonly TimelineEntry[] | undefined;
  error: Error | null;
}

/** Per host, a bar per task result on one time axis, and the slowest tasks. */
export function RunTimeline({ entries, error }: RunTimelineProps) {
  const timeline = useMemo(() => buildTimeline(entries ?? []), [entries]);
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({
    key: "duration",
    desc: true,
  });
  const slowest = useMemo(() => {
    const rows = (entries ?? []).filter((entry) => entry.duration !== null);
    const direction = sort.desc ? -1 : 1;
    rows.sort((a, b) => {
      if (sort.key === "duration") return direction * ((a.duration ?? 0) - (b.duration ?? 0));
      if (sort.key === "host") return direction * laneName(a).localeCompare(laneName(b));
      return direction * a.task.localeCompare(b.task);
    });
    return rows.slice(0, SLOWEST);
  }, [entries, sort]);

  if (error) {
    return (
      <Alert color="red" title="Could not load the timeline">
        {error.message}
      </Alert>
    );
  }
  if (!entries) return null;
  if (timeline.lanes.length === 0) return <Text c="dimmed">No task has finished yet.</Text>;
  const hostCount = timeline.lanes.filter((lane) => !lane.requirements).length;
  const onSort = (key: SortKey) =>
    setSort((current) => ({ key, desc: current.key === key ? !current.desc : key === "duration" }));

  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {hostCount} hosts · {formatSeconds(timeline.span)} from the first task to the last
        </Text>
        <Group gap="xs" aria-hidden="true">
          {["ok", "changed", "failed", "skipped"].map((status) => (
            <Group key={status} gap={4}>
              <span
                className={classes.bar}
                data-status={status}
                style={{ position: "static", display: "inline-block", width: 10, height: 10 }}
              />
              <Text size="xs">{status}</Text>
            </Group>
          ))}
        </Group>
      </Group>
      <div className={classes.lanes} role="list" aria-label="Timeline per host">
        {timeline.lanes.slice(0, MAX_LANES).map((lane) => (
          <div
            key={lane.requirements ? "requirements" : `host:${lane.host}`}
            role="listitem"
            style={{ display: "contents" }}
          >
            <div
              className={classes.host}
              data-requirements={lane.requirements || undefined}
              title={
                lane.requirements
                  ? `Installing the repository's roles and collections: ${formatSeconds(lane.busy)}`
                  : `${lane.host}: ${formatSeconds(lane.busy)} in tasks`
              }
            >
              {lane.host}
            </div>
            <div className={classes.track}>
              {lane.bars.map((bar) => (
                <div
                  key={bar.counter}
                  className={classes.bar}
                  data-status={bar.status}
                  style={{ left: `${bar.left * 100}%`, width: `${bar.width * 100}%` }}
                  title={`${bar.task} — ${formatSeconds(bar.duration)} (${bar.status})`}
                />
              ))}
            </div>
          </div>
        ))}
      </div>
      {timeline.lanes.length > MAX_LANES && (
        <Text size="xs" c="dimmed">
          The first {MAX_LANES} of {timeline.lanes.length} hosts are drawn.
        </Text>
      )}
      <Title order={4}>Slowest tasks</Title>
      <Table.ScrollContainer minWidth={420}>
        <Table aria-label="Slowest tasks" verticalSpacing={4} striped>
          <Table.Thead>
            <Table.Tr>
              <SortHeader label="Task" sortKey="task" sort={sort} onSort={onSort} />
              <SortHeader label="Host" sortKey="host" sort={sort} onSort={onSort} />
              <Table.Th>Status</Table.Th>
              <SortHeader label="Duration" sortKey="duration" sort={sort} onSort={onSort} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {slowest.map((entry) => (
              <Table.Tr key={entry.counter}>
                <Table.Td>{entry.task}</Table.Td>
                <Table.Td fs={entry.kind === "requirements" ? "italic" : undefined}>
                  {laneName(entry)}
                </Table.Td>
                <Table.Td>{entry.status}</Table.Td>
                <Table.Td ta="right">{formatSeconds(entry.duration ?? 0)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
