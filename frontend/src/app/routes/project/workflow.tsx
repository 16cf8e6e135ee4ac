import { Alert, Anchor, Button, Group, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { Link, useNavigate, useParams } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { useWorkflow } from "@/features/workflows/api/get-workflows";
import { useLaunchWorkflow } from "@/features/workflows/api/save-workflow";
import { WorkflowEditor } from "@/features/workflows/components/workflow-editor";
import { WorkflowGraph } from "@/features/workflows/components/workflow-graph";
import { WorkflowRunsTable } from "@/features/workflows/components/workflow-runs-table";
import { idParam } from "@/lib/id-param";
import { paths } from "@/lib/paths";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";
import { QueryState } from "@/components/query-state";

export function Component() {
  const { project } = useProjectContext();
  const navigate = useNavigate();
  const param = useParams().workflowId;
  const isNew = param === "new";
  const workflowId = isNew ? null : idParam(param);
  const workflow = useWorkflow(project.id, workflowId);
  const launch = useLaunchWorkflow(project.id);
  const canWrite = can(project.permissions, PROJECT_ACTIONS.workflowWrite);
  const back = paths.project(project.id, "workflows");
  const header = (
    <Anchor component={Link} to={back} size="sm">
      ← All workflows
    </Anchor>
  );
  if (!isNew && workflowId === null) {
    return <Alert color="yellow" title="Workflow not found" />;
  }
  if (isNew) {
    return (
      <Stack>
        {header}
        <Title order={3}>New workflow</Title>
        <WorkflowEditor
          projectId={project.id}
          workflow={null}
          onSaved={(saved) =>
            void navigate(paths.workflow(project.id, saved.id), { replace: true })
          }
          onCancel={() => void navigate(back)}
        />
      </Stack>
    );
  }
  return (
    <Stack>
      {header}
      <QueryState query={workflow} loading="Loading the workflow" notFound="Workflow not found">
        {(w) => (
          <Stack key={w.id}>
            <Group justify="space-between" wrap="wrap">
              <Title order={3}>{w.name}</Title>
              <Button
                loading={launch.isPending}
                onClick={() =>
                  launch.mutate(w.id, {
                    onSuccess: (run) => void navigate(paths.workflowRun(project.id, run.id)),
                    onError: (error) =>
                      notifications.show({ color: "red", message: error.message }),
                  })
                }
              >
                Launch
              </Button>
            </Group>
            {w.description && (
              <Text size="sm" c="dimmed">
                {w.description}
              </Text>
            )}
            {canWrite ? (
              <WorkflowEditor
                key={w.updated_at}
                projectId={project.id}
                workflow={w}
                onSaved={() => undefined}
              />
            ) : (
              <WorkflowGraph
                boxes={w.nodes.map((n) => ({
                  key: n.key,
                  label: n.kind === "template" ? n.template_name : `approval: ${n.name}`,
                }))}
                edges={w.edges}
              />
            )}
            <Title order={4}>Runs of this workflow</Title>
            <WorkflowRunsTable projectId={project.id} workflowId={w.id} />
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
