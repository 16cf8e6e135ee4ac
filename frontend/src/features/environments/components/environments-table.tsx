import { Stack, Text } from "@mantine/core";
import type { Schemas } from "@/api/client";
import { type Column, PagedTable } from "@/components/paged-table";
import { useEnvironments } from "@/features/environments/api/get-environments";
import { usePageParam } from "@/hooks/use-page-param";

type Environment = Schemas["EnvironmentRead"];

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

const columns: Column<Environment>[] = [
  {
    key: "name",
    header: "Name",
    cell: (environment) => (
      <Stack gap={0}>
        <Text fw={500}>{environment.name}</Text>
        <Text size="xs" c="dimmed" lineClamp={1}>
          {environment.description}
        </Text>
      </Stack>
    ),
  },
  {
    key: "contents",
    header: "Contents",
    cell: (environment) => (
      <Text size="sm">
        {[
          count(Object.keys(environment.extra_vars).length, "extra var"),
          count(Object.keys(environment.env_vars).length, "environment variable"),
          count(environment.secrets.length, "secret"),
        ].join(" · ")}
      </Text>
    ),
  },
];

// TODO(environments UI): create/edit form (extra vars, env vars, secret references), delete
export function EnvironmentsTable({ projectId }: { projectId: number }) {
  const { page, setPage, limit, offset } = usePageParam(25);
  const environments = useEnvironments(projectId, limit, offset);
  return (
    <PagedTable
      label="Environments"
      columns={columns}
      rowKey={(environment) => environment.id}
      data={environments.data}
      isPending={environments.isPending}
      error={environments.error}
      page={page}
      onPageChange={setPage}
      empty="No environments yet."
    />
  );
}
