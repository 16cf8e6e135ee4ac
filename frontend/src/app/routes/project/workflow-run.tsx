import { useParams } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { DetailsPage } from "@/components/details-page";
import { WorkflowRunView } from "@/features/workflows/components/workflow-run-view";
import { idParam } from "@/lib/id-param";
import { paths } from "@/lib/paths";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";

export function Component() {
  const { project } = useProjectContext();
  return (
    <DetailsPage
      id={idParam(useParams().workflowRunId)}
      notFound="Workflow run not found"
      back={paths.project(project.id, "workflows")}
      backLabel="All workflows"
    >
      {(workflowRunId) => (
        <WorkflowRunView
          projectId={project.id}
          workflowRunId={workflowRunId}
          canCancel={can(project.permissions, PROJECT_ACTIONS.runCancel)}
        />
      )}
    </DetailsPage>
  );
}
