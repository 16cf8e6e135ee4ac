import { NumberInput, Select, Switch, Text, TextInput, Textarea } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useNavigate } from "react-router";
import type { Schemas } from "@/api/client";
import { useKeyOptions } from "@/api/queries/project-options";
import { FormModal } from "@/components/form-modal";
import { useAdhocModules, useRunAdhoc } from "@/features/inventories/api/run-adhoc";
import {
  ADHOC_DEFAULTS,
  type AdhocFormValues,
  toAdhocBody,
} from "@/features/inventories/lib/adhoc";
import { useServerErrors } from "@/lib/form-errors";
import { paths } from "@/lib/paths";

type Inventory = Schemas["InventoryRead"];

interface AdhocModalProps {
  projectId: number;
  inventory: Inventory;
  onClose: () => void;
}

/** "Run command": one allowed module on the inventory's hosts now; opens the live run. */
export function AdhocModal({ projectId, inventory, onClose }: AdhocModalProps) {
  const navigate = useNavigate();
  const modules = useAdhocModules(projectId);
  const run = useRunAdhoc(projectId, inventory.id);
  const sshKeys = useKeyOptions(projectId, ["ssh", "login_password"]);
  const becomeKeys = useKeyOptions(projectId, ["login_password"]);
  const form = useForm<AdhocFormValues>({
    mode: "controlled",
    initialValues: ADHOC_DEFAULTS,
    validate: { module: (value) => (value ? null : "Choose a module") },
  });
  const serverErrors = useServerErrors(form);
  const freeForm = modules.data?.free_form ?? [];
  const isFreeForm = freeForm.includes(form.values.module);

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    let body;
    try {
      body = toAdhocBody(values, freeForm);
    } catch (error) {
      form.setFieldError("args", error instanceof Error ? error.message : String(error));
      return;
    }
    run.mutate(body, {
      onSuccess: (started) => void navigate(paths.run(started.project_id, started.id)),
      onError: (error) => serverErrors.show(error),
    });
  });

  return (
    <FormModal
      onClose={onClose}
      title={`Run a command on “${inventory.name}”`}
      size="lg"
      onSubmit={submit}
      error={serverErrors.message ?? (modules.error ? modules.error.message : null)}
      submitLabel="Run"
      pending={run.isPending}
    >
      <Select
        label="Module"
        placeholder="ping, shell, service…"
        data={modules.data?.modules ?? []}
        searchable
        {...form.getInputProps("module")}
      />
      <Textarea
        label="Arguments"
        description={
          isFreeForm
            ? "The command line. It runs as written: {{ … }} is not templated."
            : "NAME=VALUE pairs (name=nginx state=restarted) or a JSON object."
        }
        autosize
        minRows={1}
        ff="monospace"
        {...form.getInputProps("args")}
      />
      <TextInput
        label="Hosts"
        description="A host pattern (db*, web:&prod); empty: every host of the inventory."
        ff="monospace"
        {...form.getInputProps("limit")}
      />
      <Select
        label="Credential"
        placeholder="none (the inventory's own settings)"
        data={sshKeys.data ?? []}
        clearable
        {...form.getInputProps("ssh_key_id")}
      />
      <Switch label="Become (sudo)" {...form.getInputProps("become", { type: "checkbox" })} />
      {form.values.become && (
        <Select
          label="Become password"
          placeholder="none"
          data={becomeKeys.data ?? []}
          clearable
          {...form.getInputProps("become_key_id")}
        />
      )}
      <NumberInput label="Forks" min={1} max={200} {...form.getInputProps("forks")} />
      <Text size="xs" c="dimmed">
        The command is a run like any other: recorded, streamed and audited.
      </Text>
    </FormModal>
  );
}
