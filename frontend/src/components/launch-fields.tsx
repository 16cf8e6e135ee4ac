import {
  Fieldset,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from "@mantine/core";
import type { UseFormReturnType } from "@mantine/form";
import type { Schemas } from "@/api/client";
import { ExtraVarsInput } from "@/components/extra-vars-input";
import { SurveyAnswers } from "@/components/survey-answers";
import { EXTRA_VARS_HELP } from "@/lib/extra-vars";
import { type LaunchFormValues, VERBOSITY } from "@/lib/launch-form";
import type { SourcedOptions } from "@/lib/survey-options";

type Template = Schemas["TemplateRead"];

interface LaunchFieldsProps {
  form: UseFormReturnType<LaunchFormValues>;
  template: Template;
  inventories: { value: string; label: string }[];
  /** survey password questions whose earlier answer is kept (a relaunch) */
  keptSecrets?: readonly string[];
  /** what a kept secret answer's input says (SurveyAnswers' default: a relaunch's) */
  keptHint?: string;
  /** why the limit cannot be typed (a relaunch on the failed hosts) */
  limitFixed?: string;
  /** sourced survey questions' options now (SurveyAnswers) */
  sourced?: Record<string, SourcedOptions>;
}

/** The survey and the overrides the template allows: of a launch, and of a relaunch. */
export function LaunchFields({
  form,
  template,
  inventories,
  keptSecrets,
  keptHint,
  limitFixed,
  sourced,
}: LaunchFieldsProps) {
  const allowed = new Set(template.overridable);
  const overrides = allowed.size > 0;
  return (
    <>
      {template.survey.length > 0 && (
        <Fieldset legend="Survey">
          <SurveyAnswers
            form={form}
            questions={template.survey}
            kept={keptSecrets}
            keptHint={keptHint}
            sourced={sourced}
          />
        </Fieldset>
      )}
      {overrides && (
        <Fieldset legend="Options">
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {allowed.has("limit") && (
                <TextInput
                  label="Limit"
                  placeholder="all"
                  disabled={limitFixed !== undefined}
                  description={limitFixed}
                  {...form.getInputProps("limit")}
                />
              )}
              {allowed.has("inventory_id") && (
                <Select
                  label="Inventory"
                  data={inventories}
                  allowDeselect={false}
                  {...form.getInputProps("inventory_id")}
                />
              )}
              {allowed.has("ref") && (
                <TextInput
                  label="Git ref"
                  placeholder="the repository's"
                  description="a branch, tag or commit of the repository to run"
                  {...form.getInputProps("ref")}
                />
              )}
              {allowed.has("tags") && <TextInput label="Tags" {...form.getInputProps("tags")} />}
              {allowed.has("skip_tags") && (
                <TextInput label="Skip tags" {...form.getInputProps("skip_tags")} />
              )}
              {allowed.has("verbosity") && (
                <Select
                  label="Verbosity"
                  data={VERBOSITY}
                  allowDeselect={false}
                  {...form.getInputProps("verbosity")}
                />
              )}
              {allowed.has("forks") && (
                <NumberInput
                  label="Forks"
                  allowDecimal={false}
                  min={1}
                  max={200}
                  {...form.getInputProps("forks")}
                />
              )}
              {allowed.has("timeout_seconds") && (
                <NumberInput
                  label="Timeout (seconds)"
                  allowDecimal={false}
                  min={1}
                  {...form.getInputProps("timeout_seconds")}
                />
              )}
            </SimpleGrid>
            {(allowed.has("check_mode") || allowed.has("diff_mode")) && (
              <Group>
                {allowed.has("check_mode") && (
                  <Switch
                    label="Check mode (dry run)"
                    {...form.getInputProps("check_mode", { type: "checkbox" })}
                  />
                )}
                {allowed.has("diff_mode") && (
                  <Switch
                    label="Diff mode"
                    {...form.getInputProps("diff_mode", { type: "checkbox" })}
                  />
                )}
              </Group>
            )}
            {allowed.has("extra_vars") && (
              <ExtraVarsInput
                description={`${EXTRA_VARS_HELP}; merged over the template's`}
                {...form.getInputProps("extra_vars")}
              />
            )}
          </Stack>
        </Fieldset>
      )}
      {!overrides && template.survey.length === 0 && limitFixed === undefined && (
        <Text size="sm">This template runs as it is configured; it asks nothing.</Text>
      )}
    </>
  );
}
