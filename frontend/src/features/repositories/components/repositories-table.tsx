import { Stack, Text } from "@mantine/core";
import type { Schemas } from "@/api/client";
import { type Column, PagedTable } from "@/components/paged-table";
import { useRepositories } from "@/features/repositories/api/get-repositories";
import { usePageParam } from "@/hooks/use-page-param";

type Repository = Schemas["RepositoryRead"];

const columns: Column<Repository>[] = [
  {
    key: "name",
    header: "Name",
    cell: (repository) => (
      <Stack gap={0}>
        <Text fw={500}>{repository.name}</Text>
        <Text size="xs" c="dimmed" lineClamp={1}>
          {repository.description}
        </Text>
      </Stack>
    ),
  },
  { key: "kind", header: "Kind", visibleFrom: "sm", cell: (repository) => repository.kind },
  {
    key: "url",
    header: "Location",
    cell: (repository) => (
      <Text size="sm" ff="monospace" style={{ wordBreak: "break-all" }}>
        {repository.url}
      </Text>
    ),
  },
  {
    key: "ref",
    header: "Ref",
    visibleFrom: "md",
    cell: (repository) => <Text ff="monospace">{repository.ref}</Text>,
  },
];

// TODO(repositories UI): create/edit form, access test (POST .../test), delete
export function RepositoriesTable({ projectId }: { projectId: number }) {
  const { page, setPage, limit, offset } = usePageParam(25);
  const repositories = useRepositories(projectId, limit, offset);
  return (
    <PagedTable
      label="Repositories"
      columns={columns}
      rowKey={(repository) => repository.id}
      data={repositories.data}
      isPending={repositories.isPending}
      error={repositories.error}
      page={page}
      onPageChange={setPage}
      empty="No repositories yet."
    />
  );
}
