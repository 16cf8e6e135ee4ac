import { Anchor, Button, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useState } from "react";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import type { Column } from "@/components/columns-table";
import { PagedTable } from "@/components/paged-table";
import { type TextField, TextFields } from "@/components/text-fields";
import { useHosts } from "@/features/hosts/api/get-hosts";
import { OutcomeBadge } from "@/features/hosts/components/outcome-badge";
import {
  type HostFilters,
  type HostSearchValues,
  toHostFilters,
} from "@/features/hosts/lib/host-filters";
import { formatDateTime, plural } from "@/lib/format";
import { paths } from "@/lib/paths";

type Host = Schemas["HostSummary"];

const VARIABLE_HINT = "name=value, or a name alone";

const SEARCH_FIELDS: readonly TextField<keyof HostSearchValues>[] = [
  { name: "q", label: "Name", placeholder: "oradb" },
  { name: "group", label: "Group", placeholder: "prod" },
  { name: "variable", label: "Variable", placeholder: "tier=gold", description: VARIABLE_HINT },
];

const EMPTY: HostSearchValues = { q: "", group: "", variable: "" };

/** Every host of a project's inventories and runs (or, without `projectId`, of every project:
 * admins), searchable by name, group and inventory variable; each opens its page. */
export function HostsPanel({ projectId }: { projectId?: number }) {
  const [filters, setFilters] = useState<HostFilters>({});
  const [page, setPage] = useState(1);
  const hosts = useHosts(projectId, filters, page);
  const form = useForm<HostSearchValues>({ mode: "uncontrolled", initialValues: EMPTY });

  const columns: Column<Host>[] = [
    {
      key: "name",
      header: "Host",
      cell: (host) => (
        <Anchor component={Link} to={paths.host(host.project_id, host.name)} ff="monospace">
          {host.name}
        </Anchor>
      ),
    },
    ...(projectId === undefined
      ? [
          {
            key: "project",
            header: "Project",
            cell: (host: Host) => (
              <Anchor component={Link} to={paths.project(host.project_id, "hosts")}>
                #{host.project_id}
              </Anchor>
            ),
          },
        ]
      : []),
    {
      key: "groups",
      header: "Groups",
      visibleFrom: "sm",
      cell: (host) => (
        <Text size="sm" c={host.groups.length ? undefined : "dimmed"}>
          {host.groups.join(", ") || (host.inventories.length ? "ungrouped" : "in no inventory")}
        </Text>
      ),
    },
    { key: "runs", header: "Runs", cell: (host) => host.runs.toLocaleString() },
    {
      key: "last",
      header: "Last run",
      cell: (host) =>
        host.last_run_id ? (
          <Group gap={6} wrap="nowrap">
            <OutcomeBadge outcome={host.last_outcome} />
            <Anchor component={Link} to={paths.run(host.project_id, host.last_run_id)} size="sm">
              #{host.last_run_id}
            </Anchor>
            {host.last_seen_at && (
              <Text size="xs" c="dimmed" visibleFrom="md">
                {formatDateTime(host.last_seen_at)}
              </Text>
            )}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            never
          </Text>
        ),
    },
  ];

  return (
    <Stack>
      <form
        aria-label="Host search"
        onSubmit={form.onSubmit((values) => {
          setFilters(toHostFilters(values));
          setPage(1);
        })}
        onReset={() => {
          form.reset();
          setFilters({});
          setPage(1);
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TextFields form={form} fields={SEARCH_FIELDS} />
        </SimpleGrid>
        <Group mt="sm" gap="xs">
          <Button type="submit">Search</Button>
          <Button type="reset" variant="default">
            Clear
          </Button>
        </Group>
      </form>
      <PagedTable
        label="Hosts"
        columns={columns}
        rowKey={(host) => `${host.project_id}:${host.name}`}
        data={hosts.data}
        isPending={hosts.isPending}
        error={hosts.error}
        page={page}
        onPageChange={setPage}
        empty={
          Object.keys(filters).length
            ? "No host matches."
            : "No hosts yet: an inventory's hosts show here once it is saved, and every host a run reaches."
        }
      />
      {hosts.data && hosts.data.total > 0 && (
        <Text size="xs" c="dimmed">
          {plural(hosts.data.total, "host")}: from the inventories as last read, and the runs.
        </Text>
      )}
    </Stack>
  );
}
