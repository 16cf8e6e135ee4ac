import { Anchor } from "@mantine/core";
import { Link } from "react-router";
import type { Run } from "@/features/runs/api/get-run";
import { launchedHow } from "@/features/runs/lib/run-facts";
import { paths } from "@/lib/paths";

type Launch = Pick<Run, "project_id" | "launch_type" | "schedule_id" | "webhook_id"> &
  Partial<Pick<Run, "workflow_run_id" | "launched_by">>;

/** How a run was started, with a link to the schedule, webhook or workflow run behind it. */
export function LaunchedVia({ run }: { run: Launch }) {
  if (run.workflow_run_id) {
    return (
      <Anchor component={Link} to={paths.workflowRun(run.project_id, run.workflow_run_id)} inherit>
        {launchedHow(run)}
      </Anchor>
    );
  }
  if (run.schedule_id) {
    return (
      <Anchor component={Link} to={paths.schedule(run.project_id, run.schedule_id)} inherit>
        {launchedHow(run)}
      </Anchor>
    );
  }
  if (run.webhook_id) {
    return (
      <Anchor component={Link} to={paths.webhook(run.project_id, run.webhook_id)} inherit>
        {launchedHow(run)}
      </Anchor>
    );
  }
  return <>{launchedHow(run)}</>;
}
