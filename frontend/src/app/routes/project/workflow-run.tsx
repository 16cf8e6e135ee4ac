import { Alert, Anchor, Stack } from "@mantine/core";
import { Link, useParams } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { WorkflowRunView } from "@/features/workflows/components/workflow-run-view";
import { paths } from "@/lib/paths";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  const workflowRunId = Number(useParams().workflowRunId);
  if (!Number.isSafeInteger(workflowRunId) || workflowRunId < 1) {
    return <Alert color="yellow" title="Workflow run not found" />;
  }
  return (
    <Stack key={workflowRunId}>
      <Anchor component={Link} to={paths.project(project.id, "workflows")} size="sm">
        ← All workflows
      </Anchor>
      <WorkflowRunView
        projectId={project.id}
        workflowRunId={workflowRunId}
        canCancel={can(project.permissions, PROJECT_ACTIONS.runCancel)}
      />
    </Stack>
  );
}
