import {
  Alert,
  Anchor,
  Badge,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { type Column, ColumnsTable } from "@/components/columns-table";
import { OlderButton } from "@/components/older-button";
import { QueryState } from "@/components/query-state";
import { useFactDiff, useFactHistory, useHostFacts } from "@/features/hosts/api/get-facts";
import { type FactRow, factRows, searchFacts, showValue } from "@/features/hosts/lib/fact-rows";
import { formatDateTime, plural } from "@/lib/format";
import { paths } from "@/lib/paths";

const SHOWN = 200; // rows of the key/value list at once: the search narrows the rest

/** The host's facts: the current ones (a searchable key/value list), the points where they
 * changed, and the diff of two points. */
export function HostFacts({ projectId, host }: { projectId: number; host: string }) {
  const current = useHostFacts(projectId, host);
  return (
    <Stack gap="xs">
      <Title order={3}>Facts</Title>
      <QueryState
        query={current}
        loading="Loading the facts"
        failed="Could not load the facts"
        small
      >
        {(read) =>
          read.run_id == null && Object.keys(read.facts).length === 0 ? (
            <Text c="dimmed" size="sm">
              No run has gathered facts on it yet (gather_facts, setup, or set_fact with cacheable).
            </Text>
          ) : (
            <Stack gap="md">
              <CurrentFacts projectId={projectId} read={read} />
              <FactHistory projectId={projectId} host={host} />
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}

function CurrentFacts({ projectId, read }: { projectId: number; read: Schemas["FactsRead"] }) {
  const [search, setSearch] = useState("");
  const rows = useMemo(() => factRows(read.facts), [read.facts]);
  const found = useMemo(() => searchFacts(rows, search), [rows, search]);
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {read.run_id != null && (
          <>
            Last gathered by{" "}
            <Anchor component={Link} to={paths.run(projectId, read.run_id)}>
              run #{read.run_id}
            </Anchor>
          </>
        )}
        {read.gathered_at ? ` on ${formatDateTime(read.gathered_at)}` : ""} ·{" "}
        {plural(rows.length, "value")}
      </Text>
      {read.dropped.length > 0 && (
        <Alert color="yellow" title="Some facts were too big to keep">
          Left out to stay within the size bound: {read.dropped.join(", ")}
        </Alert>
      )}
      <TextInput
        aria-label="Search the facts"
        placeholder="Search the facts: kernel, mounts /boot, eth0…"
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={480}
      />
      <ColumnsTable
        label="Current facts"
        columns={FACT_COLUMNS}
        rows={found.slice(0, SHOWN)}
        rowKey={(row) => row.path}
        minWidth={0}
        maxHeight={420}
        verticalSpacing={4}
        fz="sm"
        layout="fixed"
      />
      {found.length === 0 && (
        <Text size="sm" c="dimmed">
          No fact matches “{search}”.
        </Text>
      )}
      {found.length > SHOWN && (
        <Text size="sm" c="dimmed">
          {plural(found.length - SHOWN, "more value")}: narrow the search to see them.
        </Text>
      )}
    </Stack>
  );
}

type KindChange = {
  kind: (typeof KINDS)[number];
  change: Schemas["FactDiff"]["added"][number];
};

/** A fact's path or value: monospace, broken anywhere rather than widening the table. */
const VALUE_CELL = { ff: "monospace", style: { overflowWrap: "anywhere" } } as const;

const FACT_COLUMNS: readonly Column<FactRow>[] = [
  { key: "path", header: "Fact", width: "45%", td: VALUE_CELL, cell: (row) => row.path },
  { key: "value", header: "Value", td: VALUE_CELL, cell: (row) => row.value },
];

const CHANGE_COLUMNS: readonly Column<KindChange>[] = [
  {
    key: "path",
    header: "Fact",
    width: "40%",
    td: { style: { overflowWrap: "anywhere" } },
    cell: ({ kind, change }) => (
      <Group gap={4} wrap="wrap">
        <Badge size="xs" variant="light" color={kind.color}>
          {kind.label}
        </Badge>
        <Text span ff="monospace" size="sm">
          {change.path}
        </Text>
      </Group>
    ),
  },
  {
    key: "before",
    header: "Before",
    td: VALUE_CELL,
    cell: ({ kind, change }) => (kind.key === "added" ? "—" : showValue(change.old)),
  },
  {
    key: "after",
    header: "After",
    td: VALUE_CELL,
    cell: ({ kind, change }) => (kind.key === "removed" ? "—" : showValue(change.new)),
  },
];

function pointLabel(point: Schemas["FactPoint"]): string {
  const run = point.run_id != null ? ` · run #${point.run_id}` : "";
  return `${formatDateTime(point.gathered_at)}${run} · ${point.summary}`;
}

function FactHistory({ projectId, host }: { projectId: number; host: string }) {
  const history = useFactHistory(projectId, host);
  const points = useMemo(
    () => history.data?.pages.flatMap((page) => page.items) ?? [],
    [history.data],
  );
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  // by default: the two newest points
  const toId = to ?? (points[0] ? String(points[0].id) : null);
  const fromId = from ?? (points[1] ? String(points[1].id) : null);
  const options = points.map((point) => ({ value: String(point.id), label: pointLabel(point) }));
  return (
    <Stack gap="xs">
      <Title order={4}>Changes over time</Title>
      <QueryState query={history} loading="Loading the history" small>
        {() =>
          points.length < 2 ? (
            <Text size="sm" c="dimmed">
              {points[0]
                ? `Unchanged since they were first gathered (${formatDateTime(points[0].gathered_at)}): there is nothing to compare yet.`
                : "No history yet."}
            </Text>
          ) : (
            <Stack gap="xs">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                <Select label="From" data={options} value={fromId} onChange={setFrom} />
                <Select label="To" data={options} value={toId} onChange={setTo} />
              </SimpleGrid>
              <OlderButton pages={history} size="xs" w="fit-content">
                Older points
              </OlderButton>
              <FactDiffView
                projectId={projectId}
                host={host}
                from={fromId ? Number(fromId) : undefined}
                to={toId ? Number(toId) : undefined}
              />
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}

const KINDS = [
  { key: "added", label: "added", color: "green" },
  { key: "removed", label: "removed", color: "red" },
  { key: "changed", label: "changed", color: "blue" },
] as const;

function FactDiffView({
  projectId,
  host,
  from,
  to,
}: {
  projectId: number;
  host: string;
  from?: number;
  to?: number;
}) {
  const diff = useFactDiff(projectId, host, from, to);
  if (from === to) {
    return (
      <Text size="sm" c="dimmed">
        Choose two different points.
      </Text>
    );
  }
  return (
    <QueryState query={diff} loading="Comparing" failed="Could not compare" small>
      {(found) => {
        const rows = KINDS.flatMap((kind) => found[kind.key].map((change) => ({ kind, change })));
        return (
          <Stack gap="xs" aria-label="Facts diff">
            <Text fw={600} size="sm">
              {found.summary}
            </Text>
            {rows.length > 0 && (
              <ColumnsTable
                label="Fact changes"
                columns={CHANGE_COLUMNS}
                rows={rows}
                rowKey={({ kind, change }) => `${kind.key}:${change.path}`}
                minWidth={0}
                maxHeight={420}
                verticalSpacing={4}
                fz="sm"
                layout="fixed"
              />
            )}
            {found.truncated && (
              <Text size="sm" c="dimmed">
                More changes than a diff lists: compare closer points.
              </Text>
            )}
          </Stack>
        );
      }}
    </QueryState>
  );
}
