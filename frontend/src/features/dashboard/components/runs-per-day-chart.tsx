import { Box, ColorSwatch, Group, Text } from "@mantine/core";
import { useElementSize } from "@mantine/hooks";
import type { Schemas } from "@/api/client";
import {
  describeDay,
  formatDayShort,
  labelStride,
  niceMax,
  segments,
} from "@/features/dashboard/lib/chart";
import { STACK_ORDER, statusFill } from "@/features/dashboard/lib/status";
import { runStatusLabel } from "@/lib/run-status";

const HEIGHT = 180;
const AXIS = 36; // the y labels' column
const BOTTOM = 22; // the day labels' row
const TOP = 8;

interface Props {
  days: Schemas["DayCounts"][];
  byStatus: Schemas["Totals"]["by_status"];
}

/** Runs per day, stacked by status: plain SVG in the theme's colours (no chart library). */
export function RunsPerDayChart({ days, byStatus }: Props) {
  const { ref, width } = useElementSize();
  const top = niceMax(Math.max(0, ...days.map((d) => d.total)));
  const plot = Math.max(0, width - AXIS);
  const band = days.length ? plot / days.length : 0;
  const bar = Math.max(2, Math.min(36, band * 0.7));
  const stride = labelStride(days.length, plot);
  const y = (runs: number) => TOP + (HEIGHT - TOP) * (1 - runs / top);
  return (
    <div>
      <Box ref={ref} w="100%">
        {width > 0 && (
          <svg
            width={width}
            height={HEIGHT + BOTTOM}
            role="group"
            aria-label="Runs per day"
            style={{ display: "block", overflow: "visible" }}
          >
            {[0, top / 2, top].map((tick) => (
              <g key={tick}>
                <line
                  x1={AXIS}
                  x2={width}
                  y1={y(tick)}
                  y2={y(tick)}
                  stroke="var(--mantine-color-default-border)"
                  strokeDasharray={tick ? "3 3" : undefined}
                />
                <text
                  x={AXIS - 6}
                  y={y(tick)}
                  textAnchor="end"
                  dominantBaseline="middle"
                  fontSize={11}
                  fill="var(--mantine-color-dimmed)"
                >
                  {Number.isInteger(tick) ? tick : ""}
                </text>
              </g>
            ))}
            {days.map((day, n) => {
              const x = AXIS + band * n + (band - bar) / 2;
              const label = describeDay(day);
              return (
                <g key={day.day} role="img" aria-label={label} data-day={day.day}>
                  <title>{label}</title>
                  {/* the whole band answers the pointer, not only the bar */}
                  <rect
                    x={AXIS + band * n}
                    y={TOP}
                    width={band}
                    height={HEIGHT - TOP}
                    fill="transparent"
                  />
                  {segments(day).map((s) => (
                    <rect
                      key={s.status}
                      data-status={s.status}
                      x={x}
                      y={y(s.from + s.count)}
                      width={bar}
                      height={Math.max(1, y(s.from) - y(s.from + s.count))}
                      fill={statusFill(s.status)}
                    />
                  ))}
                  {(days.length - 1 - n) % stride === 0 && (
                    <text
                      x={x + bar / 2}
                      y={HEIGHT + 15}
                      textAnchor="middle"
                      fontSize={11}
                      fill="var(--mantine-color-dimmed)"
                    >
                      {formatDayShort(day.day)}
                    </text>
                  )}
                </g>
              );
            })}
          </svg>
        )}
      </Box>
      <Group gap="md" mt="xs" aria-label="Runs by status" role="list">
        {STACK_ORDER.filter((status) => (byStatus[status] ?? 0) > 0).map((status) => (
          <Group key={status} gap={6} wrap="nowrap" role="listitem">
            <ColorSwatch color={statusFill(status)} size={12} withShadow={false} />
            <Text size="sm">
              {runStatusLabel(status)} <b>{byStatus[status]}</b>
            </Text>
          </Group>
        ))}
      </Group>
    </div>
  );
}
