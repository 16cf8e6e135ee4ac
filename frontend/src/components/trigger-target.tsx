import {
  Anchor,
  Badge,
  Fieldset,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Tooltip,
} from "@mantine/core";
import type { FormErrors } from "@mantine/form";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { useTemplates, useWorkflowOptions } from "@/api/queries/project-options";
import { paths } from "@/lib/paths";
import {
  TARGET_KINDS,
  type Target,
  type TargetKind,
  type TargetValues,
} from "@/lib/trigger-target";

type Template = Schemas["TemplateRead"];
type TemplatePermission = NonNullable<Template["permissions"]>[number];

/** What the form dialog of every trigger takes, beside the trigger itself. */
export interface TriggerFormProps<T> {
  projectId: number;
  onClose: () => void;
  onSaved?: (saved: T) => void;
}

interface TriggerTargetFieldsProps {
  projectId: number;
  /** a new trigger not of a known template: the person picks what it launches */
  picking: boolean;
  values: TargetValues;
  errors: FormErrors;
  onChange: (field: keyof TargetValues, value: string) => void;
  /** the template picked (null: none), for what the trigger stores of its launch values */
  onTemplate?: (template: Template | null) => void;
  /** what the caller must hold on a template to make the trigger for it */
  permissions: readonly TemplatePermission[];
  help: { template: string; noTemplate: string; workflow: string };
  /** a saved trigger's target, said since it cannot change (nothing: it is not said) */
  launches?: ReactNode;
}

/** What a trigger launches: a template or a workflow, picked once when the trigger is made. */
export function TriggerTargetFields({
  projectId,
  picking,
  values,
  errors,
  onChange,
  onTemplate,
  permissions,
  help,
  launches,
}: TriggerTargetFieldsProps) {
  const templates = useTemplates(projectId, permissions, picking);
  const workflows = useWorkflowOptions(projectId, picking);
  const ofWorkflow = values.target_kind === "workflow";
  const pickTemplate = (id: string | null) => {
    onChange("template_id", id ?? "");
    onTemplate?.(templates.data?.find((t) => String(t.id) === id) ?? null);
  };
  if (!picking) {
    return launches === undefined ? null : (
      <Text size="sm" c="dimmed">
        Launches{" "}
        <Text span fw={600} c="var(--mantine-color-text)">
          {launches}
        </Text>
      </Text>
    );
  }
  return (
    <>
      <SegmentedControl
        aria-label="Launches"
        data={TARGET_KINDS}
        value={values.target_kind}
        onChange={(kind) => onChange("target_kind", kind as TargetKind)}
      />
      {ofWorkflow ? (
        <Select
          label="Workflow"
          description={help.workflow}
          placeholder="Pick a workflow"
          required
          searchable
          data={workflows.data ?? []}
          nothingFoundMessage="No workflow in this project"
          value={values.workflow_id}
          error={errors.workflow_id}
          onChange={(id) => onChange("workflow_id", id ?? "")}
        />
      ) : (
        <Select
          label="Template"
          description={help.template}
          placeholder="Pick a template"
          required
          searchable
          data={(templates.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
          nothingFoundMessage={help.noTemplate}
          value={values.template_id}
          error={errors.template_id}
          onChange={pickTemplate}
        />
      )}
    </>
  );
}

interface TriggerLaunchValuesProps {
  ofWorkflow: boolean;
  /** why a workflow takes none: each of its nodes runs with its own */
  workflowNote: string;
  legend: string;
  help: string;
  /** the template's launch values the trigger stores (nothing: no fieldset) */
  children: ReactNode;
}

/** The launch values a trigger stores: a template's, or a note that a workflow takes none. */
export function TriggerLaunchValues({
  ofWorkflow,
  workflowNote,
  legend,
  help,
  children,
}: TriggerLaunchValuesProps) {
  if (ofWorkflow) {
    return (
      <Text size="xs" c="dimmed">
        {workflowNote}
      </Text>
    );
  }
  if (!children) return null;
  return (
    <Fieldset legend={legend}>
      <Stack gap="xs">
        <Text size="xs" c="dimmed">
          {help}
        </Text>
        {children}
      </Stack>
    </Fieldset>
  );
}

interface TriggerTargetLinkProps {
  projectId: number;
  target: Target;
  size?: "xs" | "sm";
  /** the template page's tab to open */
  tab?: "webhooks";
  /** inside a sentence: the link alone, no badge */
  inline?: boolean;
}

/** What a schedule or a webhook launches: its template or its workflow, linked; or "deleted". */
export function TriggerTargetLink({
  projectId,
  target: t,
  size = "sm",
  tab,
  inline = false,
}: TriggerTargetLinkProps) {
  const workflow = t.target_kind === "workflow";
  const id = workflow ? (t.workflow_id ?? null) : t.template_id;
  const link =
    id === null ? (
      <Text span size={size} c="dimmed">
        {inline ? "a deleted" : "deleted"} {t.target_kind}
      </Text>
    ) : (
      <Anchor
        component={Link}
        to={workflow ? paths.workflow(projectId, id) : paths.template(projectId, id, tab)}
        size={size}
      >
        {workflow ? t.workflow_name : t.template_name}
      </Anchor>
    );
  if (inline) return link;
  return (
    <Group gap={6} wrap="nowrap">
      {workflow && (
        <Badge size="xs" variant="light" color="grape">
          workflow
        </Badge>
      )}
      {link}
    </Group>
  );
}

interface TriggerStateProps {
  trigger: { enabled: boolean; disabled_reason: string };
  /** it will fire no more (a schedule past its end) */
  finished?: boolean;
}

/** On, off (by a person), disabled by Steward (with the reason), or finished. */
export function TriggerState({ trigger, finished = false }: TriggerStateProps) {
  if (trigger.disabled_reason) {
    return (
      <Tooltip label={trigger.disabled_reason} multiline w={280}>
        <Badge color="red" variant="light">
          Disabled by Steward
        </Badge>
      </Tooltip>
    );
  }
  if (!trigger.enabled) return <Badge color="gray">Off</Badge>;
  if (finished) return <Badge color="gray">Finished</Badge>;
  return <Badge color="green">On</Badge>;
}
