import { Anchor, Code, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { ConfirmDeleteModal } from "@/components/confirm-delete-modal";
import type { Column } from "@/components/columns-table";
import { PagedTable } from "@/components/paged-table";
import { RowActions } from "@/components/row-actions";
import { SectionToolbar } from "@/components/section-toolbar";
import { SetupGuide } from "@/components/setup-guide";
import { useDeleteSchedule } from "@/features/schedules/api/delete-schedule";
import { useSchedules } from "@/features/schedules/api/get-schedules";
import { ScheduleFormModal } from "@/features/schedules/components/schedule-form-modal";
import { TriggerState } from "@/components/trigger-target";
import { TriggerTargetLink } from "@/components/trigger-target";
import { browserZone, formatInZone } from "@/features/schedules/lib/zones";
import { usePageParam } from "@/hooks/use-page-param";
import { paths } from "@/lib/paths";

type Schedule = Schemas["ScheduleRead"];
type Template = Schemas["TemplateRead"];

interface SchedulesTableProps {
  projectId: number;
  /** the template page's schedules; null: every schedule of the project the caller sees */
  template: Template | null;
  /** may create schedules (and change these): template:write */
  canWrite: boolean;
  /** where a new schedule is shown once created */
  onCreated: (schedule: Schedule) => void;
}

export function SchedulesTable({ projectId, template, canWrite, onCreated }: SchedulesTableProps) {
  const { page, setPage, limit, offset } = usePageParam(25);
  const schedules = useSchedules(projectId, template?.id ?? null, limit, offset);
  const remove = useDeleteSchedule(projectId);
  const [editing, setEditing] = useState<Schedule | null | undefined>(undefined);
  const [removing, setRemoving] = useState<Schedule | null>(null);
  const zone = browserZone();

  const columns: Column<Schedule>[] = [
    {
      key: "name",
      header: "Name",
      cell: (s) => (
        <Stack gap={2}>
          <Anchor component={Link} to={paths.schedule(projectId, s.id)} fw={500}>
            {s.name}
          </Anchor>
          {s.disabled_reason ? (
            <Text size="xs" c="red" role="note">
              {s.disabled_reason}
            </Text>
          ) : (
            <Text size="xs" c="dimmed" lineClamp={1}>
              {s.description}
            </Text>
          )}
        </Stack>
      ),
    },
    ...(template
      ? []
      : [
          {
            key: "target",
            header: "Launches",
            visibleFrom: "sm",
            cell: (s: Schedule) => <TriggerTargetLink projectId={projectId} target={s} />,
          } satisfies Column<Schedule>,
        ]),
    {
      key: "when",
      header: "When",
      visibleFrom: "md",
      cell: (s) => (
        <Stack gap={0}>
          <Code style={{ whiteSpace: "pre-wrap", wordBreak: "break-word" }}>{s.expression}</Code>
          <Text size="xs" c="dimmed">
            {s.timezone}
          </Text>
        </Stack>
      ),
    },
    {
      key: "next",
      header: "Next run",
      cell: (s) =>
        s.next_fire_at ? (
          <Text size="sm" title={`${formatInZone(s.next_fire_at, s.timezone)} in ${s.timezone}`}>
            {formatInZone(s.next_fire_at, zone)}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    {
      key: "last",
      header: "Last run",
      visibleFrom: "sm",
      cell: (s) =>
        s.last_workflow_run_id != null ? (
          <Anchor
            component={Link}
            to={paths.workflowRun(projectId, s.last_workflow_run_id)}
            size="sm"
          >
            workflow run #{s.last_workflow_run_id}
            {s.last_fired_at ? ` · ${formatInZone(s.last_fired_at, zone)}` : ""}
          </Anchor>
        ) : s.last_run_id !== null ? (
          <Anchor component={Link} to={paths.run(projectId, s.last_run_id)} size="sm">
            #{s.last_run_id}
            {s.last_fired_at ? ` · ${formatInZone(s.last_fired_at, zone)}` : ""}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            never
          </Text>
        ),
    },
    {
      key: "state",
      header: "State",
      cell: (s) => <TriggerState trigger={s} finished={s.next_fire_at === null} />,
    },
    {
      key: "actions",
      header: "",
      cell: (s) =>
        canWrite && (
          <RowActions name={s.name} onEdit={() => setEditing(s)} onDelete={() => setRemoving(s)} />
        ),
    },
  ];

  return (
    <Stack>
      <SectionToolbar
        description={
          template
            ? "When this template launches by itself: cron or RRULE in a time zone, with its launch values."
            : "Every schedule of the project's templates and workflows: when each launches by itself, in its own time zone."
        }
        actionLabel={canWrite ? "New schedule" : undefined}
        onAction={() => setEditing(null)}
      />
      <PagedTable
        label="Schedules"
        columns={columns}
        rowKey={(s) => s.id}
        data={schedules.data}
        isPending={schedules.isPending}
        error={schedules.error}
        page={page}
        onPageChange={setPage}
        empty={
          template ? (
            "No schedules yet."
          ) : (
            <SetupGuide projectId={projectId} section="schedules" empty="No schedules yet." />
          )
        }
      />
      {editing !== undefined && (
        <ScheduleFormModal
          projectId={projectId}
          schedule={editing}
          template={template}
          onClose={() => setEditing(undefined)}
          onSaved={editing === null ? onCreated : undefined}
        />
      )}
      <ConfirmDeleteModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        subject={`schedule “${removing?.name ?? ""}”`}
        consequence="Its runs stay in the history. A schedule whose run is queued or running cannot be deleted: turn it off first."
        onConfirm={() => remove.mutateAsync(removing?.id ?? 0)}
      />
    </Stack>
  );
}
