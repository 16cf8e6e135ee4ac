import { Anchor, Table, Text } from "@mantine/core";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { ListTable } from "@/components/list-table";
import { RunStatusBadge } from "@/components/run-status-badge";
import { formatDateTime } from "@/lib/format";
import { paths } from "@/lib/paths";

type ActiveRun = Schemas["ActiveRun"];

function elapsed(since: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - new Date(since).getTime()) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Running runs (for how long), then queued runs in claim order with why each still waits. */
export function ActiveRunsTable({
  running,
  queued,
  now,
}: {
  running: ActiveRun[];
  queued: ActiveRun[];
  now: number;
}) {
  return (
    // three columns that wrap rather than scroll: at phone width, why a run waits stays in view
    <ListTable
      label="Running and queued runs"
      empty="Nothing is running or queued."
      columns={[{ title: "Run" }, { title: "Template" }, { title: "Status" }]}
      items={[...running, ...queued]}
      rowKey={(run) => run.id}
      row={(run) => (
        <>
          <Table.Td>
            <Anchor component={Link} to={paths.run(run.project_id, run.id)}>
              #{run.id}
            </Anchor>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{run.template_name || "(deleted template)"}</Text>
            <Text size="xs" c="dimmed">
              {run.project_name} · by {run.launched_by || run.launch_type}
            </Text>
          </Table.Td>
          <Table.Td>
            <RunStatusBadge status={run.status} style={{ flexShrink: 0 }} />
            {run.status === "queued" ? (
              <Text size="sm">{run.waiting_reason ?? "waiting"}</Text>
            ) : (
              <Text size="sm" title={run.started_at ? formatDateTime(run.started_at) : ""}>
                {run.started_at ? `running for ${elapsed(run.started_at, now)}` : "starting"}
              </Text>
            )}
          </Table.Td>
        </>
      )}
    />
  );
}
