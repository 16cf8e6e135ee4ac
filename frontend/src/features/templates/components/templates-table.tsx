import { Anchor, Button, CloseButton, Group, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import type { Schemas } from "@/api/client";
import { ConfirmDeleteModal } from "@/components/confirm-delete-modal";
import type { Column } from "@/components/columns-table";
import { LabelBadges } from "@/components/labels";
import { PagedTable } from "@/components/paged-table";
import { RowActions } from "@/components/row-actions";
import { SectionToolbar } from "@/components/section-toolbar";
import { SetupGuide, newHref } from "@/components/setup-guide";
import { useDeleteTemplate } from "@/features/templates/api/delete-template";
import { useTemplates } from "@/features/templates/api/get-templates";
import { GrantsModal } from "@/features/templates/components/grants-modal";
import { LaunchFromUrl } from "@/features/templates/components/launch-from-url";
import { LaunchModal } from "@/features/templates/components/launch-modal";
import { TemplateFormModal } from "@/features/templates/components/template-form-modal";
import { useNewParam } from "@/hooks/use-new-param";
import { usePageParam } from "@/hooks/use-page-param";
import type { CreateInPlace } from "@/lib/create-in-place";
import type { RenderHolderPicker } from "@/lib/holders";
import { idParam } from "@/lib/id-param";
import { paths } from "@/lib/paths";

type Template = Schemas["TemplateRead"];
type Run = Schemas["RunRead"];

interface TemplatesTableProps {
  projectId: number;
  /** may create templates (template:write on the project) */
  canCreate: boolean;
  /** may change who holds grants (project:members) */
  canManageGrants: boolean;
  /** may see who holds grants (project:members:view) */
  canViewGrants: boolean;
  renderHolderPicker: RenderHolderPicker;
  onLaunched: (run: Run) => void;
  /** the dialogs its form may open to create what a template needs (from src/app) */
  createInPlace?: CreateInPlace;
}

const may = (template: Template, permission: "run" | "write") =>
  template.permissions?.includes(permission) ?? false;

export function TemplatesTable(props: TemplatesTableProps) {
  const {
    projectId,
    canCreate,
    canManageGrants,
    canViewGrants,
    renderHolderPicker,
    onLaunched,
    createInPlace,
  } = props;
  const { page, setPage, limit, offset } = usePageParam(25);
  const [searchParams, setSearchParams] = useSearchParams();
  // the list's label filter is in the URL (?label=prod), a page of its own
  const label = searchParams.get("label") ?? undefined;
  const templates = useTemplates(projectId, limit, offset, label);
  const remove = useDeleteTemplate(projectId);
  const setLabel = (next: string | null) =>
    setSearchParams((current) => {
      const params = new URLSearchParams(current);
      params.delete("page");
      if (next === null) params.delete("label");
      else params.set("label", next);
      return params;
    });
  const [editing, setEditing] = useState<Template | null>(null);
  // a new template's dialog is in the URL (?new=1): the empty states link to it
  const [creating, setCreating] = useNewParam();
  const [removing, setRemoving] = useState<Template | null>(null);
  const [granting, setGranting] = useState<Template | null>(null);
  const [planning, setPlanning] = useState<Template | null>(null);

  // the launch dialog is in the URL (?launch=<id>), so a launch can be linked to
  const launchId = idParam(searchParams.get("launch"));
  const launching = templates.data?.items.find((t) => t.id === launchId);
  const setLaunch = (templateId: number | null) =>
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      if (templateId === null) next.delete("launch");
      else next.set("launch", String(templateId));
      return next;
    });

  const columns: Column<Template>[] = [
    {
      key: "name",
      header: "Name",
      cell: (template) => (
        <Stack gap={0}>
          <Anchor component={Link} to={paths.template(projectId, template.id)} fw={500}>
            {template.name}
          </Anchor>
          <Text size="xs" c="dimmed" lineClamp={1}>
            {template.description}
          </Text>
          <LabelBadges labels={template.labels} onPick={setLabel} />
        </Stack>
      ),
    },
    {
      key: "playbook",
      header: "Playbook",
      visibleFrom: "sm",
      cell: (template) => (
        <Text size="sm" ff="monospace">
          {template.playbook}
        </Text>
      ),
    },
    {
      key: "sources",
      header: "Repository · inventory",
      visibleFrom: "md",
      cell: (template) => (
        <Text size="sm">
          {template.repository.name} · {template.inventory.name}
        </Text>
      ),
    },
    {
      key: "actions",
      header: "",
      cell: (template) => (
        <Group gap={4} justify="flex-end" wrap="wrap">
          {may(template, "run") && (
            <Button
              size="compact-sm"
              aria-label={`Launch ${template.name}`}
              onClick={() => setLaunch(template.id)}
            >
              Launch
            </Button>
          )}
          {may(template, "run") && template.plans_allowed && (
            <Button
              size="compact-sm"
              variant="light"
              aria-label={`Plan ${template.name}`}
              onClick={() => setPlanning(template)}
            >
              Plan
            </Button>
          )}
          {canViewGrants && (
            <Button
              size="compact-sm"
              variant="subtle"
              aria-label={`Access to ${template.name}`}
              onClick={() => setGranting(template)}
            >
              Access
            </Button>
          )}
          {may(template, "write") && (
            <RowActions
              name={template.name}
              onEdit={() => setEditing(template)}
              onDelete={() => setRemoving(template)}
            />
          )}
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <SectionToolbar
        description="A playbook with its inventory, credentials and options, ready to launch."
        actionLabel={canCreate ? "New template" : undefined}
        onAction={() => setCreating(true)}
      />
      {label !== undefined && (
        <Group gap={4}>
          <Text size="sm">
            Only templates labelled <b>{label}</b>
          </Text>
          <CloseButton size="sm" aria-label="Show every template" onClick={() => setLabel(null)} />
        </Group>
      )}
      <PagedTable
        label="Templates"
        columns={columns}
        rowKey={(template) => template.id}
        data={templates.data}
        isPending={templates.isPending}
        error={templates.error}
        page={page}
        onPageChange={setPage}
        empty={
          label !== undefined ? (
            <Text c="dimmed">No template is labelled {label}.</Text>
          ) : (
            <SetupGuide
              projectId={projectId}
              section="templates"
              empty="No templates yet."
              own={
                canCreate
                  ? {
                      label: "New template",
                      href: newHref(projectId, "template"),
                      hint: "the template (its form can also create the missing ones in place)",
                    }
                  : undefined
              }
            />
          )
        }
      />
      {launchId !== null &&
        (launching ? (
          <LaunchModal
            projectId={projectId}
            template={launching}
            onClose={() => setLaunch(null)}
            onLaunched={onLaunched}
          />
        ) : (
          templates.data && (
            <LaunchFromUrl
              projectId={projectId}
              templateId={launchId}
              onClose={() => setLaunch(null)}
              onLaunched={onLaunched}
            />
          )
        ))}
      {planning && (
        <LaunchModal
          plan
          projectId={projectId}
          template={planning}
          onClose={() => setPlanning(null)}
          onLaunched={onLaunched}
        />
      )}
      {(editing !== null || (creating && canCreate)) && (
        <TemplateFormModal
          projectId={projectId}
          template={editing}
          create={createInPlace}
          onClose={() => (editing ? setEditing(null) : setCreating(false))}
        />
      )}
      {granting && (
        <GrantsModal
          projectId={projectId}
          template={granting}
          canManage={canManageGrants}
          renderHolderPicker={renderHolderPicker}
          onClose={() => setGranting(null)}
        />
      )}
      <ConfirmDeleteModal
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        subject={`template “${removing?.name ?? ""}”`}
        consequence="Its runs stay in the history. A template with queued or running runs cannot be deleted."
        onConfirm={() => remove.mutateAsync(removing?.id ?? 0)}
      />
    </Stack>
  );
}
