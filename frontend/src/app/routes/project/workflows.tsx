import { Stack, Title } from "@mantine/core";
import { useProjectContext } from "@/app/routes/project/context";
import { WorkflowRunsTable } from "@/features/workflows/components/workflow-runs-table";
import { WorkflowsTable } from "@/features/workflows/components/workflows-table";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  return (
    <Stack>
      <WorkflowsTable
        projectId={project.id}
        canWrite={can(project.permissions, PROJECT_ACTIONS.workflowWrite)}
      />
      <Title order={4}>Recent workflow runs</Title>
      <WorkflowRunsTable projectId={project.id} workflowId={null} />
    </Stack>
  );
}
