import { Anchor, Button, Group, Stack, Table, Text } from "@mantine/core";
import { useState } from "react";
import { Link } from "react-router";
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
      <Table.ScrollContainer minWidth={320}>
        <Table verticalSpacing="xs" aria-label="Workflow runs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Run</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th visibleFrom="sm">Launched by</Table.Th>
              <Table.Th visibleFrom="sm">Started</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((w) => (
              <Table.Tr key={w.id}>
                <Table.Td>
                  <Anchor component={Link} to={paths.workflowRun(projectId, w.id)} size="sm">
                    #{w.id}
                    {workflowId === null ? ` · ${w.workflow_name}` : ""}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <WorkflowStatusBadge status={w.status} />
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="sm">{w.launched_by}</Text>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="sm">{formatDateTime(w.created_at)}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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
