import { Alert, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMediaQuery } from "@mantine/hooks";
import type { Schemas } from "@/api/client";
import { FormModal } from "@/components/form-modal";
import { LaunchFields } from "@/components/launch-fields";
import { useLaunchInventoryOptions } from "@/api/queries/project-options";
import { useSourcedOptions } from "@/api/queries/survey-options";
import { useLaunchTemplate, usePlanTemplate } from "@/features/templates/api/launch-template";
import { LaunchFreezeAlert, useLaunchFreeze } from "@/features/templates/components/launch-freeze";
import { hostsLabel, reachedLabel } from "@/features/templates/lib/host-scope";
import { extraVarsOf } from "@/lib/extra-vars";
import { useServerErrors } from "@/lib/form-errors";
import { type LaunchFormValues, toLaunchValues, toRunCreate } from "@/lib/launch-form";

type Template = Schemas["TemplateRead"];
type Run = Schemas["RunRead"];

interface LaunchModalProps {
  projectId: number;
  template: Template;
  onClose: () => void;
  onLaunched: (run: Run) => void;
  /** launch a plan of it (check + diff mode, applied later as planned) rather than a run */
  plan?: boolean;
}

/** Launch a template: the overrides it allows, its survey as a typed form. */
export function LaunchModal({
  projectId,
  template,
  onClose,
  onLaunched,
  plan = false,
}: LaunchModalProps) {
  const phone = useMediaQuery("(max-width: 48em)");
  const run = useLaunchTemplate(projectId);
  const planned = usePlanTemplate(projectId, template.id);
  const launch = plan ? planned : run;
  const form = useForm<LaunchFormValues>({
    mode: "controlled",
    initialValues: toLaunchValues(template),
  });
  const serverErrors = useServerErrors(form);
  const mayRun = template.permissions?.includes("run") ?? true;
  const inventoryData = useLaunchInventoryOptions(projectId, template);
  const inventoryId = form.values.inventory_id === "" ? null : Number(form.values.inventory_id);
  const sourced = useSourcedOptions(projectId, template, form.values.survey, inventoryId);
  const freeze = useLaunchFreeze(projectId, template.id, plan);

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    const extraVars = extraVarsOf(values.extra_vars, (e) => form.setFieldError("extra_vars", e));
    if (extraVars === null) return;
    const body = toRunCreate(template, values, extraVars);
    launch.mutate(freeze.withReason(body), {
      onSuccess: onLaunched,
      onError: (error) => serverErrors.show(error),
    });
  });

  return (
    <FormModal
      onClose={onClose}
      title={plan ? `Plan “${template.name}”` : `Launch “${template.name}”`}
      size="lg"
      fullScreen={phone}
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel={plan ? "Plan" : "Launch"}
      pending={launch.isPending}
      autofocusSubmit={template.survey.length === 0}
    >
      <Text size="sm" c="dimmed">
        <Text span ff="monospace">
          {template.playbook}
        </Text>{" "}
        on {template.inventory.name}
        {plan && " — in check and diff mode: nothing changes until the plan is applied"}
      </Text>
      {mayRun && template.launch_hosts && (
        <Alert color="blue" title="Your grant limits the hosts">
          You may run this on: {hostsLabel(template.launch_hosts)}. The run reaches only the hosts
          of its limit that these select.
          {template.launch_hosts_now && (
            <Text size="sm" mt={4}>
              Now: {reachedLabel(template.launch_hosts_now)}.
            </Text>
          )}
        </Alert>
      )}
      {!mayRun && (
        <Alert color="yellow" title="You may not launch this template">
          The server will refuse the launch.
        </Alert>
      )}
      <LaunchFreezeAlert
        freeze={freeze}
        verb={plan ? "plan" : "launch"}
        refused={!!serverErrors.message}
      />
      <LaunchFields form={form} template={template} inventories={inventoryData} sourced={sourced} />
    </FormModal>
  );
}
