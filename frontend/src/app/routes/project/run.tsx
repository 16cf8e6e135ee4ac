import { Alert, Loader } from "@mantine/core";
import { Suspense, lazy } from "react";
import { useParams } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { PlanPanel } from "@/features/plans/components/plan-panel";
import { RunPage } from "@/features/runs/components/run-page";
import { RelaunchModal } from "@/features/templates/components/relaunch-modal";
import { idParam } from "@/lib/id-param";
import { paths } from "@/lib/paths";

// the charts (uPlot) load with the timeline tab, not with the run page
const RunMetrics = lazy(() =>
  import("@/features/metrics/components/run-metrics").then((m) => ({ default: m.RunMetrics })),
);

export function Component() {
  const { project } = useProjectContext();
  const runId = idParam(useParams().runId);
  if (runId === null) {
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
      renderRelaunch={(props) => <RelaunchModal {...props} />}
      renderPlan={(run) => <PlanPanel run={run} />}
      renderTimelineExtra={(run, version) => (
        <Suspense fallback={<Loader size="sm" aria-label="Loading host metrics" />}>
          <div style={{ marginTop: "var(--mantine-spacing-lg)" }}>
            <RunMetrics projectId={run.project_id} runId={run.id} version={version} />
          </div>
        </Suspense>
      )}
    />
  );
}
