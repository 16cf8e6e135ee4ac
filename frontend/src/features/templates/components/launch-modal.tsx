import {
  Alert,
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
import { type UseFormReturnType, useForm } from "@mantine/form";
import { useMediaQuery } from "@mantine/hooks";
import type { Schemas } from "@/api/client";
import { ExtraVarsInput } from "@/components/extra-vars-input";
import { FormModal } from "@/components/form-modal";
import { SurveyAnswers } from "@/components/survey-answers";
import { useInventoryChoices } from "@/features/templates/api/get-choices";
import { useLaunchTemplate } from "@/features/templates/api/launch-template";
import {
  type LaunchFormValues,
  toLaunchValues,
  toRunCreate,
} from "@/features/templates/lib/launch-form";
import { VERBOSITY } from "@/features/templates/lib/template-form";
import { EXTRA_VARS_HELP, parseExtraVars } from "@/lib/extra-vars";
import { useServerErrors } from "@/lib/form-errors";

type Template = Schemas["TemplateRead"];
type Run = Schemas["RunRead"];

interface LaunchModalProps {
  projectId: number;
  template: Template;
  onClose: () => void;
  onLaunched: (run: Run) => void;
}

/** Launch a template: the overrides it allows, its survey as a typed form. */
export function LaunchModal({ projectId, template, onClose, onLaunched }: LaunchModalProps) {
  const phone = useMediaQuery("(max-width: 48em)");
  const launch = useLaunchTemplate(projectId);
  const allowed = new Set(template.overridable);
  const inventories = useInventoryChoices(projectId, allowed.has("inventory_id"));
  const form = useForm<LaunchFormValues>({
    mode: "controlled",
    initialValues: toLaunchValues(template),
  });
  const serverErrors = useServerErrors(form);
  const mayRun = template.permissions?.includes("run") ?? true;
  // who may run a template but not list inventories still sees the template's own
  const inventoryData = inventories.data ?? [
    { value: String(template.inventory_id), label: template.inventory.name },
  ];

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    const extraVars = parseExtraVars(values.extra_vars);
    if (typeof extraVars === "string") {
      form.setFieldError("extra_vars", extraVars);
      return;
    }
    launch.mutate(toRunCreate(template, values, extraVars), {
      onSuccess: onLaunched,
      onError: (error) => serverErrors.show(error),
    });
  });

  return (
    <FormModal
      onClose={onClose}
      title={`Launch “${template.name}”`}
      size="lg"
      fullScreen={phone}
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel="Launch"
      pending={launch.isPending}
      autofocusSubmit={template.survey.length === 0}
    >
      <Text size="sm" c="dimmed">
        <Text span ff="monospace">
          {template.playbook}
        </Text>{" "}
        on {template.inventory.name}
      </Text>
      {!mayRun && (
        <Alert color="yellow" title="You may not launch this template">
          The server will refuse the launch.
        </Alert>
      )}
      <LaunchFields form={form} template={template} inventories={inventoryData} />
    </FormModal>
  );
}

interface LaunchFieldsProps {
  form: UseFormReturnType<LaunchFormValues>;
  template: Template;
  inventories: { value: string; label: string }[];
  /** survey password questions whose earlier answer is kept (a relaunch) */
  keptSecrets?: readonly string[];
  /** why the limit cannot be typed (a relaunch on the failed hosts) */
  limitFixed?: string;
}

/** The survey and the overrides the template allows: of a launch, and of a relaunch. */
export function LaunchFields({
  form,
  template,
  inventories,
  keptSecrets,
  limitFixed,
}: LaunchFieldsProps) {
  const allowed = new Set(template.overridable);
  const overrides = allowed.size > 0;
  return (
    <>
      {template.survey.length > 0 && (
        <Fieldset legend="Survey">
          <SurveyAnswers form={form} questions={template.survey} kept={keptSecrets} />
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
