import { Anchor, Button, Stack, Table, Text } from "@mantine/core";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
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
      <Table.ScrollContainer minWidth={0}>
        <Table aria-label="Changes on this host" verticalSpacing="xs" fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Task</Table.Th>
              <Table.Th>Run</Table.Th>
              <Table.Th visibleFrom="sm">When</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((change) => (
              <Table.Tr key={`${change.run_id}:${change.counter}`}>
                <Table.Td>
                  {change.task}
                  <Text size="xs" c="dimmed" ff="monospace">
                    {change.task_action}
                    {change.role ? ` · role ${change.role}` : ""}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={paths.run(projectId, change.run_id)}>
                    #{change.run_id} {change.template}
                  </Anchor>
                </Table.Td>
                <Table.Td visibleFrom="sm" style={{ whiteSpace: "nowrap" }}>
                  {change.ended_at ? formatDateTime(change.ended_at) : "—"}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {changes.hasNextPage && (
        <Button
          variant="default"
          onClick={() => void changes.fetchNextPage()}
          loading={changes.isFetchingNextPage}
        >
          Older changes
        </Button>
      )}
    </Stack>
  );
}
