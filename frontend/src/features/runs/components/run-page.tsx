import { Anchor, Group, Stack, Tabs, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useThrottledValue } from "@mantine/hooks";
import { type ReactNode, useCallback, useState } from "react";
import { Link } from "react-router";
import { type Run, isActive, useRun } from "@/features/runs/api/get-run";
import {
  fetchFirstFailureLine,
  useRunHosts,
  useRunTimeline,
} from "@/features/runs/api/get-run-output";
import { useRunPermissions } from "@/features/runs/api/get-run-permissions";
import { PROJECT_ACTIONS, can } from "@/lib/permissions";
import { type RenderRelaunch, RunActions } from "@/features/runs/components/run-actions";
import { RunMeta, RunParams } from "@/features/runs/components/run-meta";
import { PreflightHosts } from "@/features/runs/components/preflight-hosts";
import { RunOutput } from "@/features/runs/components/run-output";
import { LiveHosts, RunProgress } from "@/features/runs/components/run-progress";
import { RunRecap } from "@/features/runs/components/run-recap";
import { RunStory } from "@/features/runs/components/run-story";
import { RunStatusBadge } from "@/components/run-status-badge";
import { RunSummary } from "@/features/runs/components/run-summary";
import { RunTimeline } from "@/features/runs/components/run-timeline";
import { type LogFilter, NO_FILTER } from "@/features/runs/hooks/use-log-filter";
import { useLogPosition } from "@/features/runs/hooks/use-log-position";
import { createRunStore, useRunLog } from "@/features/runs/hooks/use-run-log";
import type { LineStore } from "@/features/runs/lib/line-store";
import { QueryState } from "@/components/query-state";
import { useNow } from "@/hooks/use-now";

interface RunPageProps {
  projectId: number;
  runId: number;
  /** the caller's project-wide actions, when the API tells them */
  projectPermissions?: readonly string[];
  runsHref: string;
  /** more of the timeline tab, composed by the app (host metrics); `version` changes while
   * the run goes on */
  renderTimelineExtra?: (run: Run, version: string) => ReactNode;
  /** the relaunch dialog, composed by the app (it is the templates' launch dialog) */
  renderRelaunch?: RenderRelaunch;
  /** above the tabs, composed by the app: a plan's changes, approval and apply; an apply's
   * plan and unplanned changes */
  renderPlan?: (run: Run) => ReactNode;
}

const KIND_TITLES: Record<Run["kind"], string> = {
  run: "Run",
  plan: "Plan",
  apply: "Apply",
  adhoc: "Ad-hoc command",
};

function RunView({
  run,
  store,
  projectPermissions,
  runsHref,
  renderTimelineExtra,
  renderRelaunch,
  renderPlan,
}: { run: Run; store: LineStore } & Omit<RunPageProps, "projectId" | "runId">) {
  const { live, connected, progress, quietSeconds } = useRunLog(run, store);
  const active = isActive(run.status);
  const streaming = live && active;
  // refreshed with every status change and, while it runs, as results arrive on the stream
  // (at most once a second: thousands of hosts report in bursts)
  const results = useThrottledValue(progress.results, 1000);
  const version = `${run.status}:${active ? `${Math.floor(run.event_count / 25)}:${results}` : "done"}`;
  const hosts = useRunHosts(run.project_id, run.id, version);
  const timeline = useRunTimeline(run.project_id, run.id, version);
  const permissions = useRunPermissions(run.project_id, run.template_id, projectPermissions);
  const [tab, setTab] = useState<string | null>("output");
  const [filter, setFilter] = useState<LogFilter>(NO_FILTER);
  const position = useLogPosition(active);
  const [busy, setBusy] = useState<string | null>(null);
  const onFilterChange = useCallback((next: LogFilter) => setFilter(next), []);

  const showFirstFailure = async () => {
    setTab("output");
    setBusy("Finding the first failure…");
    try {
      const line = await fetchFirstFailureLine(run.project_id, run.id);
      if (line === null) {
        notifications.show({ message: "No task has failed in this run." });
      } else {
        setFilter(NO_FILTER);
        position.showLine(line);
      }
    } catch (error) {
      notifications.show({
        color: "red",
        title: "Could not find the failure",
        message: error instanceof Error ? error.message : String(error),
      });
    } finally {
      setBusy(null);
    }
  };
  const showHost = (host: string) => {
    setFilter({ ...NO_FILTER, host });
    setTab("output");
  };
  const hostNames = (hosts.data ?? []).map((host) => host.host);
  const hasFailedHosts = (hosts.data ?? []).some((h) => h.failed + h.unreachable > 0);
  const now = useNow(1000, streaming);
  // the recap's counts come with the playbook's end: before it (running, or ended without
  // it) they would all read 0, "4 hosts: 4 ok"
  const recapped = !active && !(run.story && run.story.unfinished_host_count > 0);

  return (
    <Stack gap="xs">
      <Group justify="space-between" align="center" gap="xs">
        <Group gap="sm" miw={0}>
          <Anchor component={Link} to={runsHref} size="sm" aria-label="← Runs">
            ←&nbsp;Runs
          </Anchor>
          <Title order={3} size="h4" style={{ overflowWrap: "anywhere" }}>
            {KIND_TITLES[run.kind]} #{run.id}
            {run.template_name && ` · ${run.template_name}`}
          </Title>
          <RunStatusBadge status={run.status} />
        </Group>
        <RunActions
          run={run}
          permissions={permissions}
          hasFailedHosts={hasFailedHosts}
          renderRelaunch={renderRelaunch}
          adhocRelaunch={can(projectPermissions, PROJECT_ACTIONS.adhocRun)}
        />
      </Group>
      <RunMeta run={run} />
      {streaming && (
        <RunProgress
          progress={progress}
          quietSeconds={quietSeconds}
          onShowHosts={() => setTab("hosts")}
        />
      )}
      {!active && (
        <RunStory
          run={run}
          onShowLine={(line) => {
            setTab("output");
            setFilter(NO_FILTER);
            position.showLine(line);
          }}
        />
      )}
      {recapped && (
        <RunSummary
          hosts={hosts.data}
          failed={run.status === "failed"}
          onShowHost={showHost}
          onFirstFailure={() => void showFirstFailure()}
        />
      )}
      <PreflightHosts projectId={run.project_id} runId={run.id} status={run.status} />
      {renderPlan?.(run)}
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List aria-label="Run details">
          <Tabs.Tab value="output">Output</Tabs.Tab>
          <Tabs.Tab value="hosts">
            Hosts
            {hasFailedHosts && (
              <Text span c="red">
                {" "}
                •
              </Text>
            )}
          </Tabs.Tab>
          <Tabs.Tab value="timeline">Timeline</Tabs.Tab>
          <Tabs.Tab value="params">Parameters</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="output" pt="xs">
          <RunOutput
            run={run}
            store={store}
            live={live && active}
            connected={connected}
            hosts={hostNames}
            filter={filter}
            onFilterChange={onFilterChange}
            position={position}
            busy={busy}
          />
        </Tabs.Panel>
        <Tabs.Panel value="hosts" pt="sm">
          {streaming ? (
            <LiveHosts progress={progress} now={now} quietMs={quietSeconds * 1000} />
          ) : (
            <RunRecap hosts={hosts.data} error={hosts.error} onShowHost={showHost} />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="timeline" pt="sm">
          <RunTimeline entries={timeline.data} error={timeline.error} />
          {renderTimelineExtra?.(run, version)}
        </Tabs.Panel>
        <Tabs.Panel value="params" pt="sm">
          <RunParams run={run} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** One run: live output, recap, timeline, parameters, and what can be done with it. */
export function RunPage({ projectId, runId, ...rest }: RunPageProps) {
  const run = useRun(projectId, runId);
  // the output's first chunk loads alongside the run itself
  const [store] = useState(() => createRunStore(projectId, runId));
  return (
    <QueryState
      query={run}
      loading="Loading run"
      notFound="Run not found"
      notFoundText="It does not exist, or you may not see it."
      back={
        <Anchor component={Link} to={rest.runsHref}>
          Back to runs
        </Anchor>
      }
    >
      {(data) => <RunView run={data} store={store} {...rest} />}
    </QueryState>
  );
}
