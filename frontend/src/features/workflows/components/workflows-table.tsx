import { Anchor, Button, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import type { Schemas } from "@/api/client";
import { ConfirmDeleteModal } from "@/components/confirm-delete-modal";
import type { Column } from "@/components/columns-table";
import { PagedTable } from "@/components/paged-table";
import { RowActions } from "@/components/row-actions";
import { SectionToolbar } from "@/components/section-toolbar";
import { SetupGuide } from "@/components/setup-guide";
import { useWorkflows } from "@/features/workflows/api/get-workflows";
import { useDeleteWorkflow, useLaunchWorkflow } from "@/features/workflows/api/save-workflow";
import { usePageParam } from "@/hooks/use-page-param";
import { plural } from "@/lib/format";
import { paths } from "@/lib/paths";

type Workflow = Schemas["WorkflowRead"];

interface WorkflowsTableProps {
  projectId: number;
  /** may create, change and delete workflows: workflow:write */
  canWrite: boolean;
}

export function WorkflowsTable({ projectId, canWrite }: WorkflowsTableProps) {
  const { page, setPage, limit, offset } = usePageParam(25);
  const workflows = useWorkflows(projectId, limit, offset);
  const remove = useDeleteWorkflow(projectId);
  const launch = useLaunchWorkflow(projectId);
  const navigate = useNavigate();
  const [removing, setRemoving] = useState<Workflow | null>(null);

  const start = (workflow: Workflow) =>
    launch.mutate(workflow.id, {
      onSuccess: (run) => void navigate(paths.workflowRun(projectId, run.id)),
      onError: (error) => notifications.show({ color: "red", message: error.message }),
    });

  const columns: Column<Workflow>[] = [
    {
      key: "name",
      header: "Name",
      cell: (w) => (
        <Stack gap={2}>
          <Anchor component={Link} to={paths.workflow(projectId, w.id)} fw={500}>
            {w.name}
          </Anchor>
          <Text size="xs" c="dimmed" lineClamp={1}>
            {w.description}
          </Text>
        </Stack>
      ),
    },
    {
      key: "nodes",
      header: "Nodes",
      visibleFrom: "sm",
      cell: (w) => (
        <Text size="sm">
          {plural(w.nodes.length, "node")}, {plural(w.edges.length, "edge")}
        </Text>
      ),
    },
    {
      key: "launch",
      header: "",
      cell: (w) => (
        <Button
          size="xs"
          variant="light"
          onClick={() => start(w)}
          loading={launch.isPending && launch.variables === w.id}
          aria-label={`Launch ${w.name}`}
        >
          Launch
        </Button>
      ),
    },
    {
      key: "actions",
      header: "",
      cell: (w) =>
        canWrite && (
          <RowActions
            name={w.name}
            onEdit={() => void navigate(paths.workflow(projectId, w.id))}
            onDelete={() => setRemoving(w)}
          />
        ),
    },
  ];

  return (
    <Stack>
      <SectionToolbar
        description="Template runs and approvals chained on success, failure or always; a node with several parents runs once all of them ended."
        actionLabel={canWrite ? "New workflow" : undefined}
        onAction={() => void navigate(paths.workflow(projectId, "new"))}
      />
      <PagedTable
        label="Workflows"
        columns={columns}
        rowKey={(w) => w.id}
        data={workflows.data}
        isPending={workflows.isPending}
        error={workflows.error}
        page={page}
        onPageChange={setPage}
        empty={<SetupGuide projectId={projectId} section="workflows" empty="No workflows yet." />}
      />
      <ConfirmDeleteModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        subject={`workflow “${removing?.name ?? ""}”`}
        consequence="Its workflow runs and their runs stay in the history. A workflow with a run under way cannot be deleted: cancel it first."
        onConfirm={() => remove.mutateAsync(removing?.id ?? 0)}
      />
    </Stack>
  );
}
