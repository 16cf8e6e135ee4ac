import {
  Center,
  Fieldset,
  Loader,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMediaQuery } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { CodeTextarea } from "@/components/code-textarea";
import { ExtraVarsInput } from "@/components/extra-vars-input";
import { EXTRA_VARS_HELP } from "@/lib/extra-vars";
import { FormModal } from "@/components/form-modal";
import { SurveyAnswers } from "@/components/survey-answers";
import { useTemplate, useTemplates, useWorkflowOptions } from "@/api/queries/project-options";
import { useSaveSchedule } from "@/features/schedules/api/save-schedule";
import { DraftSchedulePreview } from "@/features/schedules/components/schedule-preview";
import { TimeZoneSelect } from "@/features/schedules/components/time-zone-select";
import {
  EXAMPLES,
  KINDS,
  MISSED_POLICIES,
  type ScheduleFormValues,
  surveyValues,
  TARGET_KINDS,
  type TargetKind,
  toNewScheduleBody,
  toScheduleBody,
  toScheduleValues,
} from "@/features/schedules/lib/schedule-form";
import { useServerErrors } from "@/lib/form-errors";

type Schedule = Schemas["ScheduleRead"];
type Template = Schemas["TemplateRead"];

interface ScheduleFormModalProps {
  projectId: number;
  /** null: a new schedule */
  schedule: Schedule | null;
  /**
   * the template it belongs to, when known (the template page); else it is loaded, or the
   * person picks a template or a workflow
   */
  template: Template | null;
  onClose: () => void;
  onSaved?: (schedule: Schedule) => void;
}

/** Create or edit a schedule; an edit first loads the template, for its survey. */
export function ScheduleFormModal(props: ScheduleFormModalProps) {
  const { projectId, schedule, template } = props;
  const load = template === null && schedule !== null ? schedule.template_id : null;
  const loaded = useTemplate(projectId, load);
  if (load !== null && loaded.isPending) {
    return (
      <Modal opened onClose={props.onClose} title={`Edit schedule “${schedule?.name ?? ""}”`}>
        <Center py="xl">
          <Loader aria-label="Loading the template" />
        </Center>
      </Modal>
    );
  }
  return <ScheduleForm {...props} template={template ?? loaded.data ?? null} />;
}

function ScheduleForm({ projectId, schedule, template, onClose, onSaved }: ScheduleFormModalProps) {
  const phone = useMediaQuery("(max-width: 48em)");
  const save = useSaveSchedule(projectId, schedule?.id ?? null);
  const picking = schedule === null && template === null;
  // a schedule may be made for the templates the caller may change
  const templates = useTemplates(projectId, ["write"], picking);
  const workflows = useWorkflowOptions(projectId, picking);
  const [picked, setPicked] = useState<Template | null>(template);
  const form = useForm<ScheduleFormValues>({
    mode: "controlled",
    initialValues: toScheduleValues(schedule, template),
  });
  const serverErrors = useServerErrors(form);
  const ofWorkflow = form.values.target_kind === "workflow";

  const pick = (id: string | null) => {
    const next = templates.data?.find((t) => String(t.id) === id) ?? null;
    setPicked(next);
    form.setFieldValue("template_id", id ?? "");
    form.setFieldValue("launch.survey", surveyValues(next?.survey ?? [], undefined));
  };

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    const checked =
      schedule === null ? toNewScheduleBody(values, picked) : toScheduleBody(values, picked);
    if ("errors" in checked) {
      form.setErrors(checked.errors);
      return;
    }
    save.mutate(checked.body, {
      onSuccess: (saved) => {
        notifications.show({ color: "green", message: `Schedule “${saved.name}” saved` });
        onClose();
        onSaved?.(saved);
      },
      onError: (error) => serverErrors.show(error),
    });
  });

  const allowed = new Set(ofWorkflow ? [] : (picked?.overridable ?? []));
  const questions = ofWorkflow ? [] : (picked?.survey ?? []);
  const launches = ofWorkflow
    ? `workflow “${schedule?.workflow_name || "a deleted workflow"}”`
    : (picked?.name ?? schedule?.template_name ?? "a deleted template");
  const zone = form.values.timezone;
  const rrule = form.values.kind === "rrule";
  return (
    <FormModal
      onClose={onClose}
      title={schedule ? `Edit schedule “${schedule.name}”` : "New schedule"}
      size="xl"
      fullScreen={phone}
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel={schedule ? "Save" : "Create schedule"}
      pending={save.isPending}
    >
      {picking && (
        <SegmentedControl
          aria-label="Launches"
          data={TARGET_KINDS}
          {...form.getInputProps("target_kind")}
          onChange={(kind) => form.setFieldValue("target_kind", kind as TargetKind)}
        />
      )}
      {picking && !ofWorkflow && (
        <Select
          label="Template"
          description="The schedule launches it with the values below"
          placeholder="Pick a template"
          required
          searchable
          data={(templates.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
          nothingFoundMessage="No template you may change"
          {...form.getInputProps("template_id")}
          onChange={pick}
        />
      )}
      {picking && ofWorkflow && (
        <Select
          label="Workflow"
          description="The schedule launches a run of it; each node runs with its own launch values"
          placeholder="Pick a workflow"
          required
          searchable
          data={workflows.data ?? []}
          nothingFoundMessage="No workflow in this project"
          {...form.getInputProps("workflow_id")}
        />
      )}
      {!picking && (
        <Text size="sm" c="dimmed">
          Launches{" "}
          <Text span fw={600} c="var(--mantine-color-text)">
            {launches}
          </Text>
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Name" required data-autofocus {...form.getInputProps("name")} />
        <TextInput label="Description" {...form.getInputProps("description")} />
      </SimpleGrid>

      <Fieldset legend="When">
        <Stack gap="sm">
          <SegmentedControl
            aria-label="Kind"
            data={KINDS}
            {...form.getInputProps("kind")}
            onChange={(kind) => form.setFieldValue("kind", kind as ScheduleFormValues["kind"])}
          />
          {rrule ? (
            <CodeTextarea
              label="Recurrence"
              description={`RFC 5545 RRULE on wall times of ${zone}, e.g. ${EXAMPLES.rrule}. Without a DTSTART line it starts at the start date, else now.`}
              placeholder="FREQ=WEEKLY;BYDAY=MO,WE,FR;BYHOUR=2;BYMINUTE=0"
              minRows={2}
              required
              {...form.getInputProps("expression")}
            />
          ) : (
            <TextInput
              label="Cron expression"
              description={`minute hour day-of-month month day-of-week, in ${zone}: ${EXAMPLES.cron}`}
              placeholder="0 2 * * 1-5"
              ff="monospace"
              spellCheck={false}
              autoCapitalize="off"
              required
              {...form.getInputProps("expression")}
            />
          )}
          <TimeZoneSelect
            label="Time zone"
            description="Occurrences follow its clock, daylight saving included"
            {...form.getInputProps("timezone")}
            value={zone}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              type="datetime-local"
              label="Start"
              description={`Optional; no run before it (${zone})`}
              {...form.getInputProps("start_at")}
            />
            <TextInput
              type="datetime-local"
              label="End"
              description={`Optional; no run after it (${zone})`}
              {...form.getInputProps("end_at")}
            />
          </SimpleGrid>
          <Select
            label="After the servers were down"
            data={MISSED_POLICIES}
            allowDeselect={false}
            {...form.getInputProps("missed_policy")}
          />
          <Switch label="Enabled" {...form.getInputProps("enabled", { type: "checkbox" })} />
        </Stack>
      </Fieldset>

      {(questions.length > 0 || allowed.has("limit") || allowed.has("extra_vars")) && (
        <Fieldset legend="Launch values">
          <Stack gap="sm">
            <Text size="xs" c="dimmed">
              Checked like a manual launch when you save, and again at every run.
            </Text>
            {allowed.has("limit") && (
              <TextInput
                label="Limit"
                placeholder={picked?.limit || "all"}
                {...form.getInputProps("launch.limit")}
              />
            )}
            {allowed.has("extra_vars") && (
              <ExtraVarsInput
                description={`${EXTRA_VARS_HELP}; merged over the template's (as untrusted values)`}
                {...form.getInputProps("launch.extra_vars")}
              />
            )}
            {questions.length > 0 && (
              <SurveyAnswers form={form} questions={questions} prefix="launch.survey" />
            )}
          </Stack>
        </Fieldset>
      )}
      {ofWorkflow && (
        <Text size="xs" c="dimmed">
          A workflow takes no launch values here: each of its nodes runs with its own.
        </Text>
      )}
      <Fieldset legend="Next runs">
        <DraftSchedulePreview projectId={projectId} values={form.values} />
      </Fieldset>
    </FormModal>
  );
}
