import { Box, Group, Stack, Text } from "@mantine/core";
import type { ComparedTask } from "@/features/metrics/api/get-runs-compared";
import { taskLabel } from "@/features/metrics/components/task-durations";
import classes from "@/features/metrics/components/shared-timeline.module.css";
import {
  axisSeconds,
  formatSeconds,
  taskKey,
  ticks,
  runColor,
} from "@/features/metrics/lib/compare";

interface SharedTimelineProps {
  tasks: readonly ComparedTask[];
  runIds: readonly number[];
  durations: readonly (number | null)[];
  hovered: string | null;
  onHover: (key: string | null) => void;
}

/** Each run's tasks as bars on one axis of seconds from its start, all runs at the same
 * scale: where a run spent longer shows as a longer bar, and what follows moves right. */
export function SharedTimeline({
  tasks,
  runIds,
  durations,
  hovered,
  onHover,
}: SharedTimelineProps) {
  const span = axisSeconds(durations, tasks);
  const pct = (seconds: number) => `${(seconds / span) * 100}%`;
  const active = hovered ? tasks.find((t) => taskKey(t) === hovered) : undefined;
  return (
    <Stack gap={6}>
      {runIds.map((id, i) => (
        <Group key={id} gap="xs" wrap="nowrap" align="center">
          <Text size="xs" fw={600} c={runColor(i)} w={52} style={{ flexShrink: 0 }}>
            #{id}
          </Text>
          <div
            className={classes.lane}
            role="list"
            aria-label={`Tasks of run ${id} on the time axis`}
          >
            {durations[i] !== null && (
              <div
                className={classes.run}
                style={{ width: pct(durations[i] ?? 0), borderColor: runColor(i) }}
              />
            )}
            {tasks.map((t) => {
              const cell = t.cells[i];
              if (!cell || cell.start === null || cell.end === null) return null;
              const key = taskKey(t);
              return (
                <button
                  key={key}
                  type="button"
                  role="listitem"
                  className={classes.task}
                  data-status={cell.status}
                  data-active={hovered === key || undefined}
                  style={{ left: pct(cell.start), width: pct(cell.end - cell.start) }}
                  title={`${taskLabel(t)}: ${formatSeconds(cell.seconds)}`}
                  aria-label={`${taskLabel(t)} in run ${id}, ${formatSeconds(cell.seconds)}`}
                  onMouseEnter={() => onHover(key)}
                  onMouseLeave={() => onHover(null)}
                  onFocus={() => onHover(key)}
                  onBlur={() => onHover(null)}
                />
              );
            })}
          </div>
        </Group>
      ))}
      <Group gap="xs" wrap="nowrap">
        <Box w={52} style={{ flexShrink: 0 }} />
        <div className={classes.axis} aria-hidden>
          {ticks(span)
            .filter((t) => t === 0 || t / span <= 0.92) // a label at the edge would overflow
            .map((t) => (
              <span key={t} className={classes.tick} style={{ left: pct(t) }}>
                {formatSeconds(t).replace(".0 s", " s")}
              </span>
            ))}
        </div>
      </Group>
      <Text size="xs" c="dimmed" aria-live="polite">
        {active
          ? `${taskLabel(active)}: ${active.cells
              .map((c, i) => `#${runIds[i]} ${c ? formatSeconds(c.seconds) : "not run"}`)
              .join(" · ")}`
          : "Seconds from each run's start, one scale for all. Hover a task to compare it."}
      </Text>
    </Stack>
  );
}
