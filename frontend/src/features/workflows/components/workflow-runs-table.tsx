import { Anchor, Button, Group, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { Link } from "react-router";
import { ColumnsTable } from "@/components/columns-table";
import { useWorkflowRuns } from "@/features/workflows/api/workflow-runs";
import { WorkflowStatusBadge } from "@/features/workflows/components/workflow-status-badge";
import { formatDateTime } from "@/lib/format";
import { paths } from "@/lib/paths";

/** Workflow runs, newest first: of one workflow, or (null) of the project. */
export function WorkflowRunsTable({
  projectId,
  workflowId,
}: {
  projectId: number;
  workflowId: number | null;
}) {
  const [before, setBefore] = useState<number[]>([]); // the pages walked, newest first
  const beforeId = before.at(-1) ?? null;
  const runs = useWorkflowRuns(projectId, workflowId, beforeId);
  if (runs.error) {
    return (
      <Text c="red" size="sm">
        {runs.error.message}
      </Text>
    );
  }
  const items = runs.data?.items ?? [];
  if (runs.data && items.length === 0 && before.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        Not launched yet.
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <ColumnsTable
        label="Workflow runs"
        verticalSpacing="xs"
        rows={items}
        rowKey={(w) => w.id}
        columns={[
          {
            key: "run",
            header: "Run",
            cell: (w) => (
              <Anchor component={Link} to={paths.workflowRun(projectId, w.id)} size="sm">
                #{w.id}
                {workflowId === null ? ` · ${w.workflow_name}` : ""}
              </Anchor>
            ),
          },
          {
            key: "status",
            header: "Status",
            cell: (w) => <WorkflowStatusBadge status={w.status} />,
          },
          {
            key: "by",
            header: "Launched by",
            visibleFrom: "sm",
            cell: (w) => <Text size="sm">{w.launched_by}</Text>,
          },
          {
            key: "started",
            header: "Started",
            visibleFrom: "sm",
            cell: (w) => <Text size="sm">{formatDateTime(w.created_at)}</Text>,
          },
        ]}
      />
      <Group gap="xs">
        {before.length > 0 && (
          <Button size="xs" variant="default" onClick={() => setBefore(before.slice(0, -1))}>
            Newer
          </Button>
        )}
        {runs.data?.next_before_id != null && (
          <Button
            size="xs"
            variant="default"
            onClick={() => setBefore([...before, runs.data?.next_before_id ?? 0])}
          >
            Older
          </Button>
        )}
      </Group>
    </Stack>
  );
}
