import { Alert } from "@mantine/core";
import { useParams } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { RunPage } from "@/features/runs/components/run-page";
import { paths } from "@/lib/paths";

export function Component() {
  const { project } = useProjectContext();
  const runId = Number(useParams().runId);
  if (!Number.isSafeInteger(runId) || runId < 1) {
    return <Alert color="yellow" title="Run not found" />;
  }
  return (
    <RunPage
      // another run (a relaunch) starts from a fresh line store and stream
      key={runId}
      projectId={project.id}
      runId={runId}
      projectPermissions={project.permissions}
      runsHref={paths.project(project.id, "runs")}
    />
  );
}
