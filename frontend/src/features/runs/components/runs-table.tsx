import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Checkbox,
  Group,
  Loader,
  Table,
  Text,
  VisuallyHidden,
} from "@mantine/core";
import { Link } from "react-router";
import { type RunFilters, useRuns } from "@/features/runs/api/get-runs";
import { LaunchedVia } from "@/features/runs/components/launched-via";
import { RunLabel, RunLabelEditor } from "@/features/runs/components/run-label";
import { RunStatusBadge } from "@/components/run-status-badge";
import {
  type LaunchValue,
  launchValues,
  launchedFrom,
  launchedHow,
  runDuration,
} from "@/features/runs/lib/run-facts";
import { runPath } from "@/features/runs/lib/run-path";
import { useNow } from "@/hooks/use-now";
import { formatDateTime, plural } from "@/lib/format";
import type { Run } from "@/features/runs/api/get-run";

/** "4 hosts · 1 failed · 1 unreachable": a run's hosts, unreachable apart from failed. */
function HostCountsText({ counts }: { counts: NonNullable<Run["host_counts"]> }) {
  return (
    <Text size="xs" c="dimmed" aria-label="Hosts">
      {plural(counts.hosts, "host")}
      {counts.failed > 0 && (
        <Text span c="red" fw={700} size="xs">
          {` · ${counts.failed} failed`}
        </Text>
      )}
      {counts.unreachable > 0 && (
        <Text span c="grape" fw={700} size="xs">
          {` · ${counts.unreachable} unreachable`}
        </Text>
      )}
    </Text>
  );
}

interface RunsTableProps {
  /** omit for the runs of every visible project */
  projectId?: number;
  limit?: number;
  /** show the "older runs" button */
  pageable?: boolean;
  filters?: RunFilters;
  /** a checkbox per run (to compare runs): the ticked ids and what a tick does */
  selection?: { selected: readonly number[]; onToggle: (runId: number) => void };
  /** show a pencil to label the runs (the caller may launch in the project) */
  canLabel?: boolean;
  /** a click on a launch value filters the list by it */
  onValue?: (value: LaunchValue) => void;
}

const VALUES_SHOWN = 4;

/** A run's answers and launch settings, each a chip that filters by it (when it can). */
function LaunchValues({
  values,
  onValue,
}: {
  values: LaunchValue[];
  onValue?: (value: LaunchValue) => void;
}) {
  if (values.length === 0) return <>—</>;
  const shown = values.slice(0, VALUES_SHOWN);
  return (
    <Group gap={4} wrap="wrap" maw={320}>
      {shown.map((v) => {
        const text = `${v.name}=${v.value}`;
        return (
          <Badge
            key={`${v.kind}:${v.name}`}
            variant={v.kind === "answer" ? "light" : "outline"}
            color="gray"
            size="sm"
            tt="none"
            maw={200}
            title={onValue ? `Only runs with ${text}` : text}
            component={onValue ? "button" : "span"}
            onClick={onValue ? () => onValue(v) : undefined}
            style={onValue ? { cursor: "pointer" } : undefined}
          >
            {text}
          </Badge>
        );
      })}
      {values.length > VALUES_SHOWN && (
        <Text size="xs" c="dimmed" title={values.map((v) => `${v.name}=${v.value}`).join("\n")}>
          +{values.length - VALUES_SHOWN}
        </Text>
      )}
    </Group>
  );
}

export function RunsTable({
  projectId,
  limit = 25,
  pageable = true,
  filters,
  selection,
  canLabel = false,
  onValue,
}: RunsTableProps) {
  const runs = useRuns(projectId, limit, filters);
  const rows = runs.data?.pages.flatMap((page) => page.items) ?? [];
  // durations of running runs count up between refreshes
  const now = useNow(
    1000,
    rows.some((run) => run.started_at && !run.finished_at),
  );
  if (runs.isError) {
    return (
      <Alert color="red" title="Could not load runs">
        {runs.error.message}
      </Alert>
    );
  }
  if (runs.isPending) {
    return (
      <Center py="md">
        <Loader aria-label="Loading runs" />
      </Center>
    );
  }
  if (rows.length === 0) {
    return (
      <Text c="dimmed">
        {filters && Object.keys(filters).length > 0
          ? "No run matches these filters."
          : "No runs yet."}
      </Text>
    );
  }
  return (
    <>
      <Table.ScrollContainer minWidth={320}>
        <Table aria-label="Runs" verticalSpacing="xs" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              {selection && (
                <Table.Th w={36}>
                  <VisuallyHidden>Pick to compare</VisuallyHidden>
                </Table.Th>
              )}
              <Table.Th>Run</Table.Th>
              <Table.Th>Template</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th visibleFrom="sm">Values</Table.Th>
              <Table.Th visibleFrom="sm">Duration</Table.Th>
              <Table.Th visibleFrom="sm">Launched by</Table.Th>
              <Table.Th visibleFrom="md">How</Table.Th>
              <Table.Th visibleFrom="lg">From</Table.Th>
              <Table.Th visibleFrom="md">Created</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((run) => (
              <Table.Tr key={run.id}>
                {selection && (
                  <Table.Td>
                    <Checkbox
                      aria-label={`Pick run ${run.id}`}
                      checked={selection.selected.includes(run.id)}
                      onChange={() => selection.onToggle(run.id)}
                    />
                  </Table.Td>
                )}
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Anchor component={Link} to={runPath(run.project_id, run.id)}>
                      #{run.id}
                    </Anchor>
                    {canLabel && <RunLabelEditor run={run} />}
                  </Group>
                  <RunLabel run={run} />
                </Table.Td>
                <Table.Td>
                  {run.template_name}
                  {/* on a phone the hidden columns in one line */}
                  <Text size="xs" c="dimmed" hiddenFrom="sm">
                    {[run.launched_by, launchedHow(run), runDuration(run, now)]
                      .filter(Boolean)
                      .join(" · ")}
                  </Text>
                  <Text size="xs" c="dimmed" hiddenFrom="sm">
                    {launchValues(run.params)
                      .map((v) => `${v.name}=${v.value}`)
                      .join(" · ")}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <RunStatusBadge status={run.status} />
                  {run.host_counts && <HostCountsText counts={run.host_counts} />}
                  {run.status === "queued" && run.waiting_reason && (
                    <Text size="xs" c="dimmed">
                      {run.waiting_reason}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <LaunchValues values={launchValues(run.params)} onValue={onValue} />
                </Table.Td>
                <Table.Td visibleFrom="sm" style={{ whiteSpace: "nowrap" }}>
                  {runDuration(run, now) ?? "—"}
                </Table.Td>
                <Table.Td visibleFrom="sm">{run.launched_by || "—"}</Table.Td>
                <Table.Td visibleFrom="md">
                  <LaunchedVia run={run} />
                </Table.Td>
                <Table.Td visibleFrom="lg" ff={run.source_ip ? "monospace" : undefined} fz="xs">
                  {launchedFrom(run)}
                </Table.Td>
                <Table.Td visibleFrom="md" style={{ whiteSpace: "nowrap" }}>
                  {formatDateTime(run.created_at)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pageable && runs.hasNextPage && (
        <Group>
          <Button
            variant="default"
            onClick={() => void runs.fetchNextPage()}
            loading={runs.isFetchingNextPage}
          >
            Older runs
          </Button>
        </Group>
      )}
    </>
  );
}
