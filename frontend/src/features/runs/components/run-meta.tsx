import { Anchor, Code, SimpleGrid, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Run } from "@/features/runs/api/get-run";
import { runPath } from "@/features/runs/lib/run-path";
import { formatSeconds } from "@/features/runs/lib/timeline";
import { formatDateTime } from "@/lib/format";

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

function duration(run: Run): string | null {
  if (!run.started_at) return null;
  const end = run.finished_at ? Date.parse(run.finished_at) : Date.now();
  return formatSeconds(Math.max(0, (end - Date.parse(run.started_at)) / 1000));
}

/** Who launched the run, how and when; the commit; why it ended as it did. */
export function RunMeta({ run }: { run: Run }) {
  const took = duration(run);
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="md" verticalSpacing="xs">
      <Field label="Launched by">
        {run.launched_by || "—"}{" "}
        <Text span size="xs" c="dimmed">
          via {run.launch_type}
          {run.source_ip ? ` from ${run.source_ip}` : ""}
        </Text>
      </Field>
      <Field label="Created">{formatDateTime(run.created_at)}</Field>
      <Field label="Started">{run.started_at ? formatDateTime(run.started_at) : "—"}</Field>
      <Field label={run.finished_at ? "Finished" : "Running for"}>
        {run.finished_at ? formatDateTime(run.finished_at) : (took ?? "—")}
        {run.finished_at && took && (
          <Text span size="xs" c="dimmed">
            {" "}
            ({took})
          </Text>
        )}
      </Field>
      <Field label="Commit">
        {run.commit_hash ? (
          <Code title={run.commit_hash}>{run.commit_hash.slice(0, 12)}</Code>
        ) : (
          "—"
        )}
      </Field>
      <Field label="Exit code">{run.rc ?? "—"}</Field>
      {run.relaunch_of_id !== null && (
        <Field label="Relaunch of">
          <Anchor component={Link} to={runPath(run.project_id, run.relaunch_of_id)}>
            #{run.relaunch_of_id}
          </Anchor>
        </Field>
      )}
      {run.status_reason && (
        <Field label="Status reason">
          <Text size="sm" c={run.status === "successful" ? undefined : "red"}>
            {run.status_reason}
          </Text>
        </Field>
      )}
    </SimpleGrid>
  );
}

/** The run's parameters as launched (secret values come redacted from the server). */
export function RunParams({ run }: { run: Run }) {
  return (
    <Code block aria-label="Run parameters">
      {JSON.stringify(run.params, null, 2)}
    </Code>
  );
}
