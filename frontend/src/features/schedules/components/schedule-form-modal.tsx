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
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMediaQuery } from "@mantine/hooks";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { CodeTextarea } from "@/components/code-textarea";
import { ExtraVarsInput } from "@/components/extra-vars-input";
import { EXTRA_VARS_HELP } from "@/lib/extra-vars";
import { FormModal } from "@/components/form-modal";
import { SurveyAnswers } from "@/components/survey-answers";
import { useTemplate } from "@/api/queries/project-options";
import { useSourcedOptions } from "@/api/queries/survey-options";
import {
  type TriggerFormProps,
  TriggerLaunchValues,
  TriggerTargetFields,
} from "@/components/trigger-target";
import { useSaveSchedule } from "@/features/schedules/api/save-schedule";
import { DraftSchedulePreview } from "@/features/schedules/components/schedule-preview";
import { TimeZoneSelect } from "@/features/schedules/components/time-zone-select";
import {
  EXAMPLES,
  KINDS,
  MISSED_POLICIES,
  type ScheduleFormValues,
  surveyValues,
  toNewScheduleBody,
  toScheduleBody,
  toScheduleValues,
} from "@/features/schedules/lib/schedule-form";
import { savedThen } from "@/lib/saved";
import { useServerErrors } from "@/lib/form-errors";

type Schedule = Schemas["ScheduleRead"];
type Template = Schemas["TemplateRead"];

interface ScheduleFormModalProps extends TriggerFormProps<Schedule> {
  /** null: a new schedule */
  schedule: Schedule | null;
  /**
   * the template it belongs to, when known (the template page); else it is loaded, or the
   * person picks a template or a workflow
   */
  template: Template | null;
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
  const [picked, setPicked] = useState<Template | null>(template);
  const form = useForm<ScheduleFormValues>({
    mode: "controlled",
    initialValues: toScheduleValues(schedule, template),
  });
  const serverErrors = useServerErrors(form);
  const ofWorkflow = form.values.target_kind === "workflow";

  const pick = (next: Template | null) => {
    setPicked(next);
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
    save.mutate(checked.body, savedThen("Schedule", serverErrors, { onClose, onSaved }));
  });

  const allowed = new Set(ofWorkflow ? [] : (picked?.overridable ?? []));
  const questions = ofWorkflow ? [] : (picked?.survey ?? []);
  // sourced questions offer their options now (on the template's inventory: a schedule
  // overrides none); the save and each firing check the answers against them again
  const sourced = useSourcedOptions(
    projectId,
    ofWorkflow ? null : picked,
    form.values.launch.survey,
  );
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
      <TriggerTargetFields
        projectId={projectId}
        picking={picking}
        values={form.values}
        errors={form.errors}
        onChange={(field, value) => form.setFieldValue(field, value)}
        onTemplate={pick}
        // a schedule may be made for the templates the caller may change
        permissions={["write"]}
        help={{
          template: "The schedule launches it with the values below",
          noTemplate: "No template you may change",
          workflow: "The schedule launches a run of it; each node runs with its own launch values",
        }}
        launches={launches}
      />
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
          {!ofWorkflow && (
            <Switch
              label="Run plans"
              description="Each run is a plan (check and diff mode; the template must allow plans): changes it finds after a clean run show as drift"
              {...form.getInputProps("plan", { type: "checkbox" })}
            />
          )}
        </Stack>
      </Fieldset>

      <TriggerLaunchValues
        ofWorkflow={ofWorkflow}
        workflowNote="A workflow takes no launch values here: each of its nodes runs with its own."
        legend="Launch values"
        help="Checked like a manual launch when you save, and again at every run."
      >
        {(questions.length > 0 || allowed.has("limit") || allowed.has("extra_vars")) && (
          <>
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
              <SurveyAnswers
                form={form}
                questions={questions}
                prefix="launch.survey"
                sourced={sourced}
              />
            )}
          </>
        )}
      </TriggerLaunchValues>
      <Fieldset legend="Next runs">
        <DraftSchedulePreview projectId={projectId} values={form.values} />
      </Fieldset>
    </FormModal>
  );
}
