import { Alert, Anchor, Button, Code, Group, Paper, SimpleGrid, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { Link } from "react-router";
import { DeleteButton } from "@/components/confirm-delete-modal";
import { Fact } from "@/components/fact";
import { useDeleteSchedule } from "@/features/schedules/api/delete-schedule";
import { useSchedule } from "@/features/schedules/api/get-schedule";
import { useTemplate } from "@/api/queries/project-options";
import { useToggleSchedule } from "@/features/schedules/api/save-schedule";
import { ScheduleFormModal } from "@/features/schedules/components/schedule-form-modal";
import { SchedulePreview } from "@/features/schedules/components/schedule-preview";
import { TriggerState } from "@/components/trigger-target";
import { MISSED_POLICIES } from "@/features/schedules/lib/schedule-form";
import { browserZone, formatInZone } from "@/features/schedules/lib/zones";
import { paths } from "@/lib/paths";
import { RecordHeader } from "@/components/record-header";
import { QueryState } from "@/components/query-state";

interface ScheduleDetailsProps {
  projectId: number;
  scheduleId: number;
  /** may change every template (project-wide template:write); else its template's grant says */
  canWrite: boolean;
  onDeleted: () => void;
}

/** A schedule: when it runs (next runs in its zone and the viewer's), with what, and its state. */
export function ScheduleDetails(props: ScheduleDetailsProps) {
  const { projectId, scheduleId, onDeleted } = props;
  const schedule = useSchedule(projectId, scheduleId);
  const template = useTemplate(projectId, schedule.data?.template_id ?? null);
  const canWrite = props.canWrite || (template.data?.permissions?.includes("write") ?? false);
  const toggle = useToggleSchedule(projectId);
  const remove = useDeleteSchedule(projectId);
  const [editing, setEditing] = useState(false);
  const zone = browserZone();

  return (
    <QueryState
      query={schedule}
      loading="Loading the schedule"
      notFound="Schedule not found"
      notFoundText="It does not exist, or what it launches is hidden from you."
    >
      {(s) => {
        const when = (iso: string | null) =>
          iso ? (
            <>
              {formatInZone(iso, s.timezone)}
              {zone !== s.timezone && (
                <Text span size="xs" c="dimmed">
                  {" "}
                  · {formatInZone(iso, zone)} yours
                </Text>
              )}
            </>
          ) : (
            "—"
          );
        const launch = s.launch;
        const launchShown = {
          ...(launch.limit ? { limit: launch.limit } : {}),
          ...(launch.extra_vars && Object.keys(launch.extra_vars).length
            ? { extra_vars: launch.extra_vars }
            : {}),
          ...(launch.survey && Object.keys(launch.survey).length ? { survey: launch.survey } : {}),
        };
        const setEnabled = (enabled: boolean) =>
          toggle.mutate(
            { scheduleId: s.id, enabled },
            {
              onSuccess: () =>
                notifications.show({ message: `Schedule “${s.name}” ${enabled ? "on" : "off"}` }),
              onError: (error) => notifications.show({ color: "red", message: error.message }),
            },
          );

        return (
          <Stack>
            <RecordHeader
              title={s.name}
              badges={<TriggerState trigger={s} finished={s.next_fire_at === null} />}
              actions={
                canWrite && (
                  <Group gap="xs">
                    {(s.template_id !== null || s.workflow_id != null) && (
                      <Button variant="default" onClick={() => setEditing(true)}>
                        Edit
                      </Button>
                    )}
                    <Button
                      variant="default"
                      loading={toggle.isPending}
                      onClick={() => setEnabled(!s.enabled)}
                    >
                      {s.enabled ? "Turn off" : "Turn on"}
                    </Button>
                    <DeleteButton
                      subject={`schedule “${s.name}”`}
                      consequence="Its runs stay in the history. A schedule whose run is queued or running cannot be deleted: turn it off first."
                      onConfirm={() => remove.mutateAsync(s.id).then(onDeleted)}
                    />
                  </Group>
                )
              }
            >
              <Text size="sm" c="dimmed">
                Schedule {s.id} of{" "}
                {s.target_kind === "workflow" ? (
                  s.workflow_id == null ? (
                    "a deleted workflow"
                  ) : (
                    <>
                      workflow{" "}
                      <Anchor component={Link} to={paths.workflow(projectId, s.workflow_id)}>
                        {s.workflow_name}
                      </Anchor>
                    </>
                  )
                ) : s.template_id === null ? (
                  "a deleted template"
                ) : (
                  <Anchor
                    component={Link}
                    to={paths.template(projectId, s.template_id, "schedules")}
                  >
                    {s.template_name}
                  </Anchor>
                )}
                {s.description ? ` — ${s.description}` : ""}
              </Text>
            </RecordHeader>

            {s.disabled_reason && (
              <Alert color="red" title="Steward turned this schedule off" role="alert">
                {s.disabled_reason}
                {canWrite && " Fix the cause, then turn it on again."}
              </Alert>
            )}
            {s.last_skipped_at && (
              <Alert color="yellow" title="An occurrence was skipped">
                {formatInZone(s.last_skipped_at, browserZone())}: {s.last_skipped_reason}
              </Alert>
            )}

            <Paper withBorder p="md">
              <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
                <Fact label={s.kind === "cron" ? "Cron" : "Recurrence"}>
                  <Code style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>
                    {s.expression}
                  </Code>
                </Fact>
                <Fact label="Time zone">{s.timezone}</Fact>
                <Fact label="Missed runs">
                  {MISSED_POLICIES.find((p) => p.value === s.missed_policy)?.label ??
                    s.missed_policy}
                </Fact>
                <Fact label="Next run">{when(s.next_fire_at)}</Fact>
                <Fact label="Last run">
                  {s.last_workflow_run_id != null ? (
                    <Anchor
                      component={Link}
                      to={paths.workflowRun(projectId, s.last_workflow_run_id)}
                    >
                      Workflow run #{s.last_workflow_run_id}
                    </Anchor>
                  ) : s.last_run_id !== null ? (
                    <Anchor component={Link} to={paths.run(projectId, s.last_run_id)}>
                      Run #{s.last_run_id}
                    </Anchor>
                  ) : (
                    "never"
                  )}
                  {s.last_fired_at && (
                    <Text span size="xs" c="dimmed">
                      {" "}
                      · {formatInZone(s.last_fired_at, zone)}
                    </Text>
                  )}
                </Fact>
                {s.plan && (
                  <Fact label="Runs">plans (check and diff mode): what they find is drift</Fact>
                )}
                <Fact label="Launches as">{s.owner_name || "nobody (owner deleted)"}</Fact>
                <Fact label="Start">{when(s.start_at)}</Fact>
                <Fact label="End">{when(s.end_at)}</Fact>
                <Fact label="Launch values">
                  {Object.keys(launchShown).length ? (
                    <Code block fz="xs">
                      {JSON.stringify(launchShown, null, 2)}
                    </Code>
                  ) : s.target_kind === "workflow" ? (
                    "each node's own"
                  ) : (
                    "the template's own"
                  )}
                </Fact>
              </SimpleGrid>
            </Paper>

            <Paper withBorder p="md">
              <SchedulePreview projectId={projectId} scheduleId={s.id} />
            </Paper>

            {editing && (
              <ScheduleFormModal
                projectId={projectId}
                schedule={s}
                template={template.data ?? null}
                onClose={() => setEditing(false)}
              />
            )}
          </Stack>
        );
      }}
    </QueryState>
  );
}
