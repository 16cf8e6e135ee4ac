import { Anchor, Stack, Text } from "@mantine/core";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { type Column, ColumnsTable } from "@/components/columns-table";
import { OlderButton } from "@/components/older-button";
import { QueryState } from "@/components/query-state";
import { useHostChanges } from "@/features/hosts/api/get-hosts";
import { formatDateTime } from "@/lib/format";
import { paths } from "@/lib/paths";

/** The tasks that changed the host, newest first, each with its run. */
export function HostChanges({ projectId, host }: { projectId: number; host: string }) {
  const changes = useHostChanges(projectId, host);
  return (
    <QueryState
      query={changes}
      loading="Loading the changes"
      failed="Could not load the changes"
      small
    >
      {(data) => (
        <ChangesTable
          projectId={projectId}
          changes={changes}
          rows={data.pages.flatMap((page) => page.items)}
        />
      )}
    </QueryState>
  );
}

function changeColumns(projectId: number): readonly Column<Schemas["HostChange"]>[] {
  return [
    {
      key: "task",
      header: "Task",
      cell: (change) => (
        <>
          {change.task}
          <Text size="xs" c="dimmed" ff="monospace">
            {change.task_action}
            {change.role ? ` · role ${change.role}` : ""}
          </Text>
        </>
      ),
    },
    {
      key: "run",
      header: "Run",
      cell: (change) => (
        <Anchor component={Link} to={paths.run(projectId, change.run_id)}>
          #{change.run_id} {change.template}
        </Anchor>
      ),
    },
    {
      key: "when",
      header: "When",
      visibleFrom: "sm",
      td: { style: { whiteSpace: "nowrap" } },
      cell: (change) => (change.ended_at ? formatDateTime(change.ended_at) : "—"),
    },
  ];
}

function ChangesTable({
  projectId,
  changes,
  rows,
}: {
  projectId: number;
  changes: ReturnType<typeof useHostChanges>;
  rows: Schemas["HostChange"][];
}) {
  if (rows.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        No task has changed it in the runs you may see.
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      <ColumnsTable
        label="Changes on this host"
        compact
        columns={changeColumns(projectId)}
        rows={rows}
        rowKey={(change) => `${change.run_id}:${change.counter}`}
      />
      <OlderButton pages={changes}>Older changes</OlderButton>
    </Stack>
  );
}
