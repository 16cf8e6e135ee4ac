import { Alert, Center, Group, Loader, Select, Stack, Table, Text } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { useDraftPreview, useSchedulePreview } from "@/features/schedules/api/preview-schedule";
import { type ScheduleFormValues, toDraftPreview } from "@/features/schedules/lib/schedule-form";
import { browserZone, formatWallTime } from "@/features/schedules/lib/zones";

type Preview = Schemas["SchedulePreview"];

/**
 * The next occurrences as the server computed them: each in the schedule's zone and in the
 * viewer's (one column when they are the same zone), with the offsets, so a DST change shows.
 */
export function PreviewTable({ preview, locale }: { preview: Preview; locale?: string }) {
  const same = preview.timezone === preview.viewer_tz;
  if (!preview.enabled) {
    return (
      <Text size="sm" c="dimmed">
        No next run: the schedule is off, it launches nothing until it is turned on again.
      </Text>
    );
  }
  if (preview.items.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No occurrence ahead: the end date has passed, or the expression matches no future time.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table aria-label="Next runs" verticalSpacing={4} fz="sm" withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={36}>#</Table.Th>
            <Table.Th>
              {same ? `${preview.timezone} (schedule and you)` : `Schedule: ${preview.timezone}`}
            </Table.Th>
            {!same && <Table.Th>You: {preview.viewer_tz}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {preview.items.map((item, index) => (
            <Table.Tr key={item.at}>
              <Table.Td c="dimmed">{index + 1}</Table.Td>
              <Table.Td ff="monospace">{formatWallTime(item.local, locale)}</Table.Td>
              {!same && <Table.Td ff="monospace">{formatWallTime(item.viewer, locale)}</Table.Td>}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const COUNTS = ["5", "10", "25", "50"];

/** The next runs of a saved schedule, asked of the server with the viewer's zone. */
export function SchedulePreview({
  projectId,
  scheduleId,
}: {
  projectId: number;
  scheduleId: number;
}) {
  const [count, setCount] = useState("10");
  const preview = useSchedulePreview(projectId, scheduleId, browserZone(), Number(count));
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <Text fw={600}>Next runs</Text>
        <Select
          aria-label="How many"
          data={COUNTS}
          value={count}
          onChange={(value) => value && setCount(value)}
          allowDeselect={false}
          w={90}
          size="xs"
        />
      </Group>
      {preview.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label="Loading the next runs" />
        </Center>
      ) : preview.isError ? (
        <Alert color="red" title="Could not compute the next runs">
          {preview.error.message}
        </Alert>
      ) : (
        <PreviewTable preview={preview.data} />
      )}
    </Stack>
  );
}

/** The next runs of the schedule as it is being typed: the server's answer, or why it refuses
 * the recurrence, a moment after the typing stops. */
export function DraftSchedulePreview({
  projectId,
  values,
}: {
  projectId: number;
  values: ScheduleFormValues;
}) {
  const [draft] = useDebouncedValue(toDraftPreview(values, browserZone()), 400);
  const preview = useDraftPreview(projectId, draft);
  if (draft === null) {
    return (
      <Text size="sm" c="dimmed">
        The next runs show here once the expression is typed.
      </Text>
    );
  }
  if (preview.isError) {
    return (
      <Text size="sm" c="red" role="alert">
        {preview.error.message}
      </Text>
    );
  }
  if (preview.data === undefined) {
    return (
      <Center py="md">
        <Loader size="sm" aria-label="Computing the next runs" />
      </Center>
    );
  }
  return <PreviewTable preview={preview.data} />;
}
