import { Stack, Text } from "@mantine/core";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { ConfirmDeleteModal } from "@/components/confirm-delete-modal";
import type { Column } from "@/components/columns-table";
import { PagedTable } from "@/components/paged-table";
import { RowActions } from "@/components/row-actions";
import { SectionToolbar } from "@/components/section-toolbar";
import { useDeleteEnvironment } from "@/features/environments/api/delete-environment";
import { useEnvironments } from "@/features/environments/api/get-environments";
import type { CreateInPlace } from "@/lib/create-in-place";
import { EnvironmentFormModal } from "@/features/environments/components/environment-form-modal";
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

interface EnvironmentsTableProps {
  projectId: number;
  /** may create, change and delete (resource:write) */
  canWrite: boolean;
  /** a secret's key created in place, from the form (src/app hands it) */
  createInPlace?: Pick<CreateInPlace, "key">;
}

export function EnvironmentsTable({ projectId, canWrite, createInPlace }: EnvironmentsTableProps) {
  const { page, setPage, limit, offset } = usePageParam(25);
  const environments = useEnvironments(projectId, limit, offset);
  const remove = useDeleteEnvironment(projectId);
  // undefined: no dialog; null: a new environment
  const [editing, setEditing] = useState<Environment | null | undefined>(undefined);
  const [removing, setRemoving] = useState<Environment | null>(null);
  const actions: Column<Environment> = {
    key: "actions",
    header: "",
    cell: (environment) =>
      canWrite && (
        <RowActions
          name={environment.name}
          onEdit={() => setEditing(environment)}
          onDelete={() => setRemoving(environment)}
        />
      ),
  };
  return (
    <Stack>
      <SectionToolbar
        description="Variables and secrets a template passes to its runs."
        actionLabel={canWrite ? "New environment" : undefined}
        onAction={() => setEditing(null)}
      />
      <PagedTable
        label="Environments"
        columns={[...columns, actions]}
        rowKey={(environment) => environment.id}
        data={environments.data}
        isPending={environments.isPending}
        error={environments.error}
        page={page}
        onPageChange={setPage}
        empty="No environments yet."
      />
      {editing !== undefined && (
        <EnvironmentFormModal
          projectId={projectId}
          environment={editing}
          create={createInPlace}
          onClose={() => setEditing(undefined)}
        />
      )}
      <ConfirmDeleteModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        subject={`environment “${removing?.name ?? ""}”`}
        consequence="An environment still used by a template cannot be deleted."
        onConfirm={() => remove.mutateAsync(removing?.id ?? 0)}
      />
    </Stack>
  );
}
