import { Anchor, Badge, Group, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { ConfirmDeleteModal } from "@/components/confirm-delete-modal";
import type { Column } from "@/components/columns-table";
import { PagedTable } from "@/components/paged-table";
import { RowActions } from "@/components/row-actions";
import { SectionToolbar } from "@/components/section-toolbar";
import {
  useDeleteSubscription,
  useSubscriptions,
} from "@/features/notifications/api/subscriptions";
import { SubscriptionFormModal } from "@/features/notifications/components/subscription-form-modal";
import { eventLabel } from "@/features/notifications/lib/events";
import { usePageParam } from "@/hooks/use-page-param";
import { paths } from "@/lib/paths";

type Subscription = Schemas["SubscriptionRead"];
type Scope = Schemas["SubscriptionScope"];

interface SubscriptionsTableProps {
  projectId: number;
  /** the template page's (its own, its schedules' and the project-wide ones) */
  templateId: number | null;
  /** the schedule page's: only that schedule's */
  scheduleId: number | null;
  /** may change project-wide subscriptions (resource:write) */
  canWriteProject: boolean;
  /** may change the template's (template:write on it) */
  canWriteTemplate: boolean;
}

function scopeCell(projectId: number, s: Subscription) {
  if (s.scope === "project") return <Text size="sm">Whole project</Text>;
  if (s.scope === "template" && s.template_id !== null) {
    return (
      <Text size="sm">
        Template{" "}
        <Anchor component={Link} to={paths.template(projectId, s.template_id, "notifications")}>
          {s.template_name}
        </Anchor>
      </Text>
    );
  }
  return (
    <Text size="sm">
      Schedule{" "}
      {s.schedule_id !== null ? (
        <Anchor component={Link} to={paths.schedule(projectId, s.schedule_id)}>
          {s.schedule_name}
        </Anchor>
      ) : (
        "?"
      )}
    </Text>
  );
}

/** Who is told what: subscriptions of a project, a template or a schedule. */
export function SubscriptionsTable(props: SubscriptionsTableProps) {
  const { projectId, templateId, scheduleId, canWriteProject, canWriteTemplate } = props;
  // a schedule's are picked from its template's list: one page of them all
  const { page, setPage, limit, offset } = usePageParam(
    scheduleId === null ? 25 : 500,
    "subscriptions",
  );
  const subscriptions = useSubscriptions(projectId, templateId, limit, offset);
  const remove = useDeleteSubscription(projectId);
  const [editing, setEditing] = useState<Subscription | null | undefined>(undefined);
  const [removing, setRemoving] = useState<Subscription | null>(null);

  const data =
    scheduleId === null || !subscriptions.data
      ? subscriptions.data
      : (() => {
          const items = subscriptions.data.items.filter((s) => s.schedule_id === scheduleId);
          return { ...subscriptions.data, items, total: items.length };
        })();
  const mayChange = (s: Subscription) =>
    s.scope === "project" ? canWriteProject : canWriteTemplate;
  const scopes: Scope[] =
    scheduleId !== null
      ? ["schedule"]
      : templateId !== null
        ? ["template", "schedule"]
        : [
            ...(canWriteProject ? (["project"] as const) : []),
            ...(canWriteTemplate ? (["template", "schedule"] as const) : []),
          ];
  const canCreate =
    scheduleId !== null || templateId !== null ? canWriteTemplate : scopes.length > 0;

  const columns: Column<Subscription>[] = [
    ...(scheduleId === null
      ? [{ key: "scope", header: "Runs of", cell: (s: Subscription) => scopeCell(projectId, s) }]
      : []),
    {
      key: "destination",
      header: "Destination",
      cell: (s) => (
        <Anchor component={Link} to={paths.destination(projectId, s.destination_id)} size="sm">
          {s.destination_name}{" "}
          <Text span size="xs" c="dimmed">
            ({s.destination_kind})
          </Text>
        </Anchor>
      ),
    },
    {
      key: "events",
      header: "Events",
      visibleFrom: "sm",
      cell: (s) => (
        <Group gap={4}>
          {s.events.map((e) => (
            <Badge key={e} size="sm" variant="light">
              {e === "long_running" && s.long_running_minutes !== null
                ? `running > ${s.long_running_minutes} min`
                : e === "host_quiet" && s.host_quiet_minutes !== null
                  ? `host quiet > ${s.host_quiet_minutes} min`
                  : eventLabel(e)}
            </Badge>
          ))}
        </Group>
      ),
    },
    {
      key: "actions",
      header: "",
      cell: (s) =>
        mayChange(s) && (
          <RowActions
            name={`subscription to ${s.destination_name}`}
            onEdit={() => setEditing(s)}
            onDelete={() => setRemoving(s)}
          />
        ),
    },
  ];

  return (
    <Stack>
      <SectionToolbar
        description={
          scheduleId !== null
            ? "Who is told about this schedule's runs (besides the template's and the project's subscriptions)."
            : templateId !== null
              ? "Who is told about this template's runs: its own subscriptions, its schedules' and the project-wide ones."
              : "Who is told about which runs, and of which events."
        }
        actionLabel={canCreate ? "New subscription" : undefined}
        onAction={() => setEditing(null)}
      />
      <PagedTable
        label="Subscriptions"
        columns={columns}
        rowKey={(s) => s.id}
        data={data}
        isPending={subscriptions.isPending}
        error={subscriptions.error}
        page={page}
        onPageChange={setPage}
        empty="Nobody is told yet."
      />
      {editing !== undefined && (
        <SubscriptionFormModal
          projectId={projectId}
          subscription={editing}
          scopes={scopes}
          templateId={templateId}
          scheduleId={scheduleId}
          onClose={() => setEditing(undefined)}
        />
      )}
      <ConfirmDeleteModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        subject={`subscription to “${removing?.destination_name ?? ""}”`}
        consequence="Its destination stops being told about these runs."
        onConfirm={() => remove.mutateAsync(removing?.id ?? 0)}
      />
    </Stack>
  );
}
