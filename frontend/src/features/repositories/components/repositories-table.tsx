import { Badge, Button, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { ConfirmDeleteModal } from "@/components/confirm-delete-modal";
import type { Column } from "@/components/columns-table";
import { PagedTable } from "@/components/paged-table";
import { RowActions } from "@/components/row-actions";
import { SectionToolbar } from "@/components/section-toolbar";
import { SetupGuide } from "@/components/setup-guide";
import { useDeleteRepository } from "@/features/repositories/api/delete-repository";
import { useRepositories } from "@/features/repositories/api/get-repositories";
import { useTestRepository } from "@/features/repositories/api/test-repository";
import { RepositoryFormModal } from "@/features/repositories/components/repository-form-modal";
import { useNewParam } from "@/hooks/use-new-param";
import { usePageParam } from "@/hooks/use-page-param";
import type { CreateInPlace } from "@/lib/create-in-place";
import { formatDateTime } from "@/lib/format";

type Repository = Schemas["RepositoryRead"];

interface RepositoriesTableProps {
  projectId: number;
  /** may create, change and delete (resource:write) */
  canWrite: boolean;
  /** the project's local directories (assigned by admins), shown in the form */
  localRoots?: string[];
  /** the key dialog its form may open in place (from src/app) */
  createInPlace?: Pick<CreateInPlace, "key">;
}

export function RepositoriesTable({
  projectId,
  canWrite,
  localRoots = [],
  createInPlace,
}: RepositoriesTableProps) {
  const { page, setPage, limit, offset } = usePageParam(25);
  const repositories = useRepositories(projectId, limit, offset);
  const remove = useDeleteRepository(projectId);
  const test = useTestRepository(projectId);
  const [editing, setEditing] = useState<Repository | null>(null);
  // a new repository's dialog is in the URL (?new=1): the empty states link to it
  const [creating, setCreating] = useNewParam();
  const [removing, setRemoving] = useState<Repository | null>(null);

  const runTest = (repository: Repository) =>
    test.mutate(repository.id, {
      onSuccess: (result) =>
        notifications.show({
          color: "green",
          title: `${repository.name} is reachable`,
          message: result.commit
            ? `${result.ref || "HEAD"} is at ${result.commit.slice(0, 12)}`
            : "OK",
        }),
      onError: (error) =>
        notifications.show({
          color: "red",
          title: `${repository.name} could not be reached`,
          message: error.message,
        }),
    });

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
    {
      key: "kind",
      header: "Kind",
      visibleFrom: "sm",
      cell: (repository) => <Badge variant="light">{repository.kind}</Badge>,
    },
    {
      key: "url",
      header: "URL",
      visibleFrom: "sm",
      cell: (repository) => (
        <Stack gap={2}>
          <Text size="sm" ff="monospace" style={{ wordBreak: "break-all" }}>
            {repository.url}
          </Text>
          {repository.local_problem && (
            <Text size="xs" c="red" role="note" aria-label={`${repository.name} cannot be used`}>
              Cannot be used: {repository.local_problem}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: "ref",
      header: "Ref",
      visibleFrom: "md",
      cell: (repository) => <Text ff="monospace">{repository.ref}</Text>,
    },
    {
      key: "checked",
      header: "Last check",
      visibleFrom: "sm",
      cell: (repository) => <LastCheck repository={repository} />,
    },
    {
      key: "actions",
      header: "",
      // reaching the repository runs git with its key: the server asks for resource:write
      cell: (repository) =>
        canWrite && (
          <Stack gap={4} align="flex-end">
            <Button
              size="compact-sm"
              variant="light"
              aria-label={`Test ${repository.name}`}
              loading={test.isPending && test.variables === repository.id}
              onClick={() => runTest(repository)}
            >
              Test
            </Button>
            <RowActions
              name={repository.name}
              onEdit={() => setEditing(repository)}
              onDelete={() => setRemoving(repository)}
            />
          </Stack>
        ),
    },
  ];

  return (
    <Stack>
      <SectionToolbar
        description="Where playbooks come from: a git repository, or a directory on the server."
        actionLabel={canWrite ? "New repository" : undefined}
        onAction={() => setCreating(true)}
      />
      <PagedTable
        label="Repositories"
        columns={columns}
        rowKey={(repository) => repository.id}
        data={repositories.data}
        isPending={repositories.isPending}
        error={repositories.error}
        page={page}
        onPageChange={setPage}
        empty={
          <SetupGuide projectId={projectId} section="repositories" empty="No repositories yet." />
        }
      />
      {(editing !== null || (creating && canWrite)) && (
        <RepositoryFormModal
          projectId={projectId}
          repository={editing}
          localRoots={localRoots}
          create={createInPlace}
          onClose={() => (editing ? setEditing(null) : setCreating(false))}
        />
      )}
      <ConfirmDeleteModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        subject={`repository “${removing?.name ?? ""}”`}
        consequence="A repository still used by a template or inventory cannot be deleted."
        onConfirm={() => remove.mutateAsync(removing?.id ?? 0)}
      />
    </Stack>
  );
}

/** When the server last tried to reach it, and what it found: never, a commit, or why not. */
export function LastCheck({ repository }: { repository: Repository }) {
  if (repository.checked_at === null) {
    return (
      <Text size="sm" c="dimmed">
        Never
      </Text>
    );
  }
  const when = formatDateTime(repository.checked_at);
  if (repository.check_problem) {
    return (
      <Stack gap={2}>
        <Badge color="red" variant="light">
          Failed
        </Badge>
        <Text size="xs" c="red" style={{ wordBreak: "break-word" }}>
          {repository.check_problem}
        </Text>
        <Text size="xs" c="dimmed">
          {when}
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap={2}>
      <Badge color="green" variant="light">
        Reachable
      </Badge>
      <Text size="xs" c="dimmed">
        {repository.checked_commit ? `${repository.checked_commit.slice(0, 12)} · ` : ""}
        {when}
      </Text>
    </Stack>
  );
}
