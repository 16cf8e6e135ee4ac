import { Alert, Anchor, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useProjectContext } from "@/app/routes/project/context";
import { type ComparedRun, useRunsCompared } from "@/features/metrics/api/get-runs-compared";
import { CompareMetrics } from "@/features/metrics/components/compare-metrics";
import { HostsSideBySide } from "@/features/metrics/components/hosts-side-by-side";
import { ParametersDiff } from "@/features/metrics/components/parameters-diff";
import { RunHeads } from "@/features/metrics/components/run-heads";
import { SharedTimeline } from "@/features/metrics/components/shared-timeline";
import { TaskDurations } from "@/features/metrics/components/task-durations";
import { askedRuns } from "@/features/metrics/lib/compare";
import { RunStatusBadge } from "@/components/run-status-badge";
import { useRunPermissions } from "@/features/runs/api/get-run-permissions";
import { RunLabel, RunLabelEditor } from "@/features/runs/components/run-label";
import { paths } from "@/lib/paths";
import { QueryState } from "@/components/query-state";

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Title order={4}>{title}</Title>
      {children}
    </Stack>
  );
}

/** A compared run's label, with its editor for who may launch its template. */
function CompareRunLabel({ run }: { run: ComparedRun }) {
  const { project } = useProjectContext();
  const may = useRunPermissions(project.id, run.template_id, project.permissions).relaunch;
  return (
    <Group gap={4} wrap="nowrap" mih={22}>
      <RunLabel run={run} />
      {may !== false && <RunLabelEditor run={run} />}
    </Group>
  );
}

function Compared({ projectId, runIds }: { projectId: number; runIds: number[] }) {
  const compared = useRunsCompared(projectId, runIds);
  const [hovered, setHovered] = useState<string | null>(null);
  return (
    <QueryState query={compared} loading="Loading the runs" notFound="Run not found">
      {(c) => {
        const templates = [...new Set(c.runs.map((r) => r.template_name || "(deleted template)"))];
        return (
          <Stack gap="lg">
            <RunHeads
              runs={c.runs}
              durations={c.durations}
              status={(run) => <RunStatusBadge status={run.status} />}
              label={(run) => <CompareRunLabel run={run} />}
            />
            {!c.same_template && (
              <Alert color="yellow" title="Runs of different templates">
                These runs are of {templates.join(", ")}: their tasks are aligned by play, role and
                name, so a difference may come from the playbooks rather than the machines.
              </Alert>
            )}
            <Section title="Parameters">
              <ParametersDiff rows={c.parameters} runIds={runIds} />
            </Section>
            <Section title="Task durations">
              <TaskDurations
                tasks={c.tasks}
                runIds={runIds}
                durations={c.durations}
                truncated={c.tasks_truncated}
                hovered={hovered}
                onHover={setHovered}
              />
            </Section>
            <Section title="Timelines">
              <SharedTimeline
                tasks={c.tasks}
                runIds={runIds}
                durations={c.durations}
                hovered={hovered}
                onHover={setHovered}
              />
            </Section>
            <Section title="Host metrics">
              <CompareMetrics
                projectId={projectId}
                runs={c.runs}
                tasks={c.tasks}
                hovered={hovered}
              />
            </Section>
            <Section title="Hosts">
              <HostsSideBySide hosts={c.hosts} runIds={runIds} truncated={c.hosts_truncated} />
            </Section>
          </Stack>
        );
      }}
    </QueryState>
  );
}

/** 2–4 runs side by side: `?runs=12,15` (the first is the baseline). */
export function Component() {
  const { project } = useProjectContext();
  const [params, setParams] = useSearchParams();
  const asked = askedRuns(params.get("runs") ?? "");
  const [text, setText] = useState(asked.ids.join(", "));
  const apply = () => setParams({ runs: askedRuns(text).ids.join(",") });
  return (
    <Stack>
      <Anchor component={Link} to={paths.project(project.id, "runs")} size="sm">
        ← Runs
      </Anchor>
      <Group justify="space-between" align="end" wrap="wrap">
        <Title order={2}>Compare runs</Title>
        <TextInput
          label="Runs"
          description="2 to 4 run numbers; the first is the baseline"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          onBlur={apply}
          onKeyDown={(event) => {
            if (event.key === "Enter") apply();
          }}
          w={280}
          maw="100%"
        />
      </Group>
      {asked.problem ? (
        <Alert color="yellow" title="Nothing to compare yet">
          <Text size="sm">{asked.problem}</Text>
        </Alert>
      ) : (
        <Compared key={asked.ids.join(",")} projectId={project.id} runIds={asked.ids} />
      )}
    </Stack>
  );
}
