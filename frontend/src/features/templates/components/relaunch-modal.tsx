import { Alert, Loader, Modal, SegmentedControl, Stack, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMediaQuery } from "@mantine/hooks";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { FormModal } from "@/components/form-modal";
import { LaunchFields } from "@/components/launch-fields";
import { useLaunchInventoryOptions } from "@/api/queries/project-options";
import { useTemplate } from "@/api/queries/project-options";
import { useSourcedOptions } from "@/api/queries/survey-options";
import { useRelaunchRun, useRelaunchValues } from "@/features/templates/api/relaunch-run";
import { LaunchFreezeAlert, useLaunchFreeze } from "@/features/templates/components/launch-freeze";
import {
  type RelaunchHosts,
  type RelaunchValues,
  toRelaunchBody,
  toRelaunchValues,
} from "@/features/templates/lib/launch-form";
import { extraVarsOf } from "@/lib/extra-vars";
import { useServerErrors } from "@/lib/form-errors";
import type { LaunchFormValues } from "@/lib/launch-form";

type Run = Schemas["RunRead"];
type Template = Schemas["TemplateRead"];

interface RelaunchModalProps {
  run: Run;
  /** what the dialog opens on: every host, or the failed ones */
  hosts: RelaunchHosts;
  onClose: () => void;
  onRelaunched: (run: Run) => void;
}

/** Relaunch a run: the launch dialog, prefilled with the run's values. */
export function RelaunchModal({ run, hosts, onClose, onRelaunched }: RelaunchModalProps) {
  const phone = useMediaQuery("(max-width: 48em)");
  const template = useTemplate(run.project_id, run.template_id ?? 0);
  const earlier = useRelaunchValues(run.project_id, run.id);
  const title = `Relaunch run #${run.id}`;
  if (template.data && earlier.data) {
    return (
      <RelaunchForm
        run={run}
        template={template.data}
        earlier={earlier.data}
        initialHosts={hosts}
        title={title}
        phone={phone ?? false}
        onClose={onClose}
        onRelaunched={onRelaunched}
      />
    );
  }
  const error = template.error ?? earlier.error;
  return (
    <Modal opened onClose={onClose} title={title} fullScreen={phone}>
      {error ? (
        <Alert color="red" title="Cannot relaunch">
          {error.message}
        </Alert>
      ) : (
        <Loader size="sm" aria-label="Loading the run's launch values" />
      )}
    </Modal>
  );
}

interface RelaunchFormProps {
  run: Run;
  template: Template;
  earlier: RelaunchValues;
  initialHosts: RelaunchHosts;
  title: string;
  phone: boolean;
  onClose: () => void;
  onRelaunched: (run: Run) => void;
}

function RelaunchForm({
  run,
  template,
  earlier,
  initialHosts,
  title,
  phone,
  onClose,
  onRelaunched,
}: RelaunchFormProps) {
  const relaunch = useRelaunchRun(run.project_id, run.id);
  const allowed = new Set(template.overridable);
  const form = useForm<LaunchFormValues>({
    mode: "controlled",
    initialValues: toRelaunchValues(template, earlier),
  });
  const serverErrors = useServerErrors(form);
  const failedCount = earlier.failed_host_count;
  const [hosts, setHosts] = useState<RelaunchHosts>(failedCount > 0 ? initialHosts : "all");
  const inventoryData = useLaunchInventoryOptions(run.project_id, template);
  const inventoryId = form.values.inventory_id === "" ? null : Number(form.values.inventory_id);
  const sourced = useSourcedOptions(run.project_id, template, form.values.survey, inventoryId);
  const freeze = useLaunchFreeze(run.project_id, template.id);
  const failedList =
    earlier.failed_hosts.join(", ") + (failedCount > earlier.failed_hosts.length ? ", …" : "");

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    const extraVars = extraVarsOf(values.extra_vars, (e) => form.setFieldError("extra_vars", e));
    if (extraVars === null) return;
    const body = toRelaunchBody(template, values, extraVars, hosts, earlier.kept_secrets);
    relaunch.mutate(freeze.withReason(body), {
      onSuccess: onRelaunched,
      onError: (error) => serverErrors.show(error),
    });
  });

  return (
    <FormModal
      onClose={onClose}
      title={title}
      size="lg"
      fullScreen={phone}
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel="Relaunch"
      pending={relaunch.isPending}
      autofocusSubmit
    >
      <Text size="sm" c="dimmed">
        <Text span ff="monospace">
          {template.playbook}
        </Text>{" "}
        of “{template.name}”, with run #{run.id}’s launch values
      </Text>
      <LaunchFreezeAlert freeze={freeze} verb="relaunch" refused={!!serverErrors.message} />
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Hosts
        </Text>
        <SegmentedControl
          aria-label="Hosts"
          value={hosts}
          onChange={(value) => setHosts(value as RelaunchHosts)}
          data={[
            { value: "all", label: "All hosts" },
            { value: "failed", label: "Failed hosts only", disabled: failedCount === 0 },
          ]}
        />
        <Text size="xs" c="dimmed">
          {failedCount === 0
            ? "No host failed or was unreachable in this run."
            : `${failedCount} failed or unreachable: ${failedList}`}
        </Text>
      </Stack>
      {hosts === "failed" && !allowed.has("limit") && (
        <Text size="sm">The limit will be the failed hosts.</Text>
      )}
      <LaunchFields
        form={form}
        template={template}
        inventories={inventoryData}
        keptSecrets={earlier.kept_secrets}
        sourced={sourced}
        limitFixed={hosts === "failed" ? "The failed hosts (chosen above)" : undefined}
      />
    </FormModal>
  );
}
