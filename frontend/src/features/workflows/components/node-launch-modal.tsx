import { Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMediaQuery } from "@mantine/hooks";
import { type ReactNode, useState } from "react";
import type { Schemas } from "@/api/client";
import { ApiError, type FieldError } from "@/api/errors";
import { FormModal } from "@/components/form-modal";
import { LaunchFields } from "@/components/launch-fields";
import { useLaunchInventoryOptions } from "@/api/queries/project-options";
import { useSourcedOptions } from "@/api/queries/survey-options";
import {
  keptSecretsOf,
  toNodeLaunch,
  toNodeLaunchValues,
} from "@/features/workflows/lib/node-launch";
import { parseExtraVars } from "@/lib/extra-vars";
import { applyServerErrors } from "@/lib/form-errors";
import type { LaunchFormValues } from "@/lib/launch-form";

type Launch = Schemas["LaunchOverrides"];

interface NodeLaunchModalProps {
  projectId: number;
  nodeKey: string;
  template: Schemas["TemplateRead"];
  /** the node's launch values as saved or last applied (secret answers as ********) */
  launch: Launch | null;
  /** the last save's errors about them, relative to the launch body (`limit`, `survey.x`) */
  errors: readonly FieldError[];
  onClose: () => void;
  onApply: (launch: Launch | null) => void;
}

/**
 * A template node's launch values, in the template launch dialog's fields (LaunchFields): what
 * the template lets a launch override, and its survey. Applied to the editor's draft; the
 * workflow's save checks them as a launch of the template would, and its errors come back here.
 */
export function NodeLaunchModal({
  projectId,
  nodeKey,
  template,
  launch,
  errors,
  onClose,
  onApply,
}: NodeLaunchModalProps) {
  const phone = useMediaQuery("(max-width: 48em)");
  // the save's errors on their fields as the dialog opens; what has no field, above the buttons
  const [opening] = useState(() => {
    const values = toNodeLaunchValues(template, launch);
    const placed: Record<string, ReactNode> = {};
    const target = {
      getValues: () => values,
      setFieldError: (path: string, error: ReactNode) => (placed[path] = error),
    };
    const unplaced =
      errors.length > 0 ? applyServerErrors(target, new ApiError(422, "", "", errors)) : null;
    return { values, placed, unplaced };
  });
  const form = useForm<LaunchFormValues>({
    mode: "controlled",
    initialValues: opening.values,
    initialErrors: opening.placed,
  });
  const kept = keptSecretsOf(template, launch);
  const inventoryData = useLaunchInventoryOptions(projectId, template);
  const inventoryId = form.values.inventory_id === "" ? null : Number(form.values.inventory_id);
  const sourced = useSourcedOptions(projectId, template, form.values.survey, inventoryId);

  const submit = form.onSubmit((values) => {
    const extraVars = parseExtraVars(values.extra_vars);
    if (typeof extraVars === "string") {
      form.setFieldError("extra_vars", extraVars);
      return;
    }
    onApply(toNodeLaunch(template, values, extraVars, launch));
  });

  return (
    <FormModal
      onClose={onClose}
      title={`Launch values of “${nodeKey}”`}
      size="lg"
      fullScreen={phone}
      onSubmit={submit}
      error={opening.unplaced}
      submitLabel="Apply"
      pending={false}
    >
      <Text size="sm" c="dimmed">
        <Text span ff="monospace">
          {template.playbook}
        </Text>{" "}
        of “{template.name}”. Values left as the template’s follow the template; they are checked
        when the workflow is saved.
      </Text>
      <LaunchFields
        form={form}
        template={template}
        inventories={inventoryData}
        keptSecrets={kept}
        keptHint="Set (never shown); type to replace it"
        sourced={sourced}
      />
    </FormModal>
  );
}
