import { Anchor, Group, Stack, Text, TextInput } from "@mantine/core";
import { useState } from "react";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { type Column, ColumnsTable } from "@/components/columns-table";
import { OlderButton } from "@/components/older-button";
import { QueryState } from "@/components/query-state";
import { hostRunsExportUrl, useHostRuns } from "@/features/hosts/api/get-hosts";
import { OutcomeBadge } from "@/features/hosts/components/outcome-badge";
import { dayBound, type HostRunFilters } from "@/features/hosts/lib/host-filters";
import { formatDateTime, formatDuration } from "@/lib/format";
import { paths } from "@/lib/paths";

/** The runs that reached the host: who, how, when, and how each went on this host; a day
 * range, and the CSV of the same ("what ran on it between two dates, by whom"). */
export function HostRuns({ projectId, host }: { projectId: number; host: string }) {
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const filters: HostRunFilters = { since: dayBound(from), until: dayBound(to, true) };
  const runs = useHostRuns(projectId, host, filters);
  return (
    <Stack gap="sm">
      <Group align="end" gap="sm" wrap="wrap">
        <TextInput
          label="From (day)"
          type="date"
          value={from}
          onChange={(event) => setFrom(event.currentTarget.value)}
        />
        <TextInput
          label="To (day)"
          type="date"
          value={to}
          onChange={(event) => setTo(event.currentTarget.value)}
        />
        <Anchor href={hostRunsExportUrl(projectId, host, filters)} download size="sm" pb={8}>
          Export as CSV
        </Anchor>
      </Group>
      <QueryState
        query={runs}
        loading="Loading the host's runs"
        failed="Could not load the host's runs"
        small
      >
        {(data) => (
          <RunsTable
            projectId={projectId}
            runs={runs}
            rows={data.pages.flatMap((page) => page.items)}
            ranged={Boolean(from || to)}
          />
        )}
      </QueryState>
    </Stack>
  );
}

function runColumns(projectId: number): readonly Column<Schemas["HostRun"]>[] {
  return [
    {
      key: "run",
      header: "Run",
      cell: (run) => (
        <>
          <Anchor component={Link} to={paths.run(projectId, run.run_id)}>
            #{run.run_id} {run.template}
          </Anchor>
          {run.label && (
            <Text size="xs" c="dimmed">
              {run.label}
            </Text>
          )}
          <Text size="xs" c="dimmed" hiddenFrom="sm">
            {run.launched_by || run.launch_type} · {formatDateTime(run.created_at)}
          </Text>
        </>
      ),
    },
    {
      key: "outcome",
      header: "On this host",
      cell: (run) => (
        <>
          <OutcomeBadge outcome={run.outcome} />
          <Text size="xs" c="dimmed">
            {run.changed} changed · {run.ok} ok
            {run.failed ? ` · ${run.failed} failed` : ""}
          </Text>
        </>
      ),
    },
    {
      key: "who",
      header: "Who",
      visibleFrom: "sm",
      cell: (run) => (
        <>
          {run.launched_by || "—"}
          <Text size="xs" c="dimmed">
            via {run.launch_type}
            {run.source_ip ? ` from ${run.source_ip}` : ""}
          </Text>
        </>
      ),
    },
    {
      key: "when",
      header: "When",
      visibleFrom: "sm",
      td: { style: { whiteSpace: "nowrap" } },
      cell: (run) => formatDateTime(run.created_at),
    },
    {
      key: "took",
      header: "Took",
      visibleFrom: "md",
      cell: (run) => (run.duration === null ? "—" : formatDuration(run.duration)),
    },
  ];
}

function RunsTable({
  projectId,
  runs,
  rows,
  ranged,
}: {
  projectId: number;
  runs: ReturnType<typeof useHostRuns>;
  rows: Schemas["HostRun"][];
  ranged: boolean;
}) {
  return (
    <>
      {rows.length === 0 && (
        <Text c="dimmed" size="sm">
          No run reached it{ranged ? " in these days" : " yet"}.
        </Text>
      )}
      {rows.length > 0 && (
        <ColumnsTable
          label="Runs on this host"
          compact
          highlightOnHover
          columns={runColumns(projectId)}
          rows={rows}
          rowKey={(run) => run.run_id}
        />
      )}
      <OlderButton pages={runs}>Older runs</OlderButton>
    </>
  );
}
