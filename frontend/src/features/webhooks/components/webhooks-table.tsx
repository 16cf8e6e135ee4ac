import { Anchor, Badge, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { ConfirmDeleteModal } from "@/components/confirm-delete-modal";
import type { Column } from "@/components/columns-table";
import { PagedTable } from "@/components/paged-table";
import { RowActions } from "@/components/row-actions";
import { SectionToolbar } from "@/components/section-toolbar";
import { SetupGuide } from "@/components/setup-guide";
import { useWebhooks } from "@/features/webhooks/api/get-webhooks";
import { useDeleteWebhook } from "@/features/webhooks/api/save-webhook";
import { WebhookFormModal } from "@/features/webhooks/components/webhook-form-modal";
import { TriggerState } from "@/components/trigger-target";
import { TriggerTargetLink } from "@/components/trigger-target";
import { usePageParam } from "@/hooks/use-page-param";
import { paths } from "@/lib/paths";

type Webhook = Schemas["WebhookRead"];

interface WebhooksTableProps {
  projectId: number;
  /** the template page's webhooks; null: every webhook of the project the caller sees */
  templateId: number | null;
  /** may create webhooks and change these (template:write and run:launch) */
  canWrite: boolean;
  onCreated: (webhook: Webhook) => void;
}

export function WebhooksTable({ projectId, templateId, canWrite, onCreated }: WebhooksTableProps) {
  const { page, setPage, limit, offset } = usePageParam(25);
  const webhooks = useWebhooks(projectId, templateId, limit, offset);
  const remove = useDeleteWebhook(projectId);
  const [editing, setEditing] = useState<Webhook | null | undefined>(undefined);
  const [removing, setRemoving] = useState<Webhook | null>(null);

  const columns: Column<Webhook>[] = [
    {
      key: "name",
      header: "Name",
      cell: (w) => (
        <Stack gap={2}>
          <Anchor component={Link} to={paths.webhook(projectId, w.id)} fw={500}>
            {w.name}
          </Anchor>
          {w.disabled_reason ? (
            <Text size="xs" c="red" role="note">
              {w.disabled_reason}
            </Text>
          ) : (
            <Text size="xs" c="dimmed" lineClamp={1}>
              {w.description}
            </Text>
          )}
        </Stack>
      ),
    },
    ...(templateId === null
      ? [
          {
            key: "target",
            header: "Launches",
            visibleFrom: "sm",
            cell: (w: Webhook) => <TriggerTargetLink projectId={projectId} target={w} />,
          } satisfies Column<Webhook>,
        ]
      : []),
    {
      key: "auth",
      header: "Sender",
      visibleFrom: "md",
      cell: (w) => <Badge variant="outline">{w.auth}</Badge>,
    },
    {
      key: "conditions",
      header: "Conditions",
      visibleFrom: "md",
      cell: (w) => (
        <Text size="sm">
          {w.matchers.length === 0
            ? "any delivery"
            : w.matchers
                .map(
                  (m) =>
                    `${m.path} ${m.op.replace("_", " ")}${m.op === "exists" ? "" : ` ${JSON.stringify(m.value)}`}`,
                )
                .join(" · ")}
        </Text>
      ),
    },
    { key: "state", header: "State", cell: (w) => <TriggerState trigger={w} /> },
    {
      key: "actions",
      header: "",
      cell: (w) =>
        canWrite && (
          <RowActions name={w.name} onEdit={() => setEditing(w)} onDelete={() => setRemoving(w)} />
        ),
    },
  ];

  return (
    <Stack>
      <SectionToolbar
        description="A URL a Git host or a tool posts to; a signed delivery that matches launches the template."
        actionLabel={canWrite ? "New webhook" : undefined}
        onAction={() => setEditing(null)}
      />
      <PagedTable
        label="Webhooks"
        columns={columns}
        rowKey={(w) => w.id}
        data={webhooks.data}
        isPending={webhooks.isPending}
        error={webhooks.error}
        page={page}
        onPageChange={setPage}
        empty={
          templateId !== null ? (
            "No webhooks yet."
          ) : (
            <SetupGuide projectId={projectId} section="webhooks" empty="No webhooks yet." />
          )
        }
      />
      {editing !== undefined && (
        <WebhookFormModal
          projectId={projectId}
          webhook={editing}
          templateId={templateId}
          onClose={() => setEditing(undefined)}
          onSaved={editing === null ? onCreated : undefined}
        />
      )}
      <ConfirmDeleteModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        subject={`webhook “${removing?.name ?? ""}”`}
        consequence="Its URL stops answering and its deliveries are deleted; the runs it launched stay."
        onConfirm={() => remove.mutateAsync(removing?.id ?? 0)}
      />
    </Stack>
  );
}
