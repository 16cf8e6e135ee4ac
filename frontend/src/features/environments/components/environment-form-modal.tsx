import { Fieldset, Group, Input, Select, Stack, Text, TextInput } from "@mantine/core";
import { NameDescriptionFields } from "@/components/name-description-fields";
import { useForm } from "@mantine/form";
import { useState } from "react";
import type { Schemas } from "@/api/client";
import { CodeTextarea } from "@/components/code-textarea";
import { FormModal } from "@/components/form-modal";
import { useKeyOptions } from "@/api/queries/project-options";
import { useSaveEnvironment } from "@/features/environments/api/save-environment";
import {
  type EnvironmentFormValues,
  rowId,
  toEnvironmentBody,
  toEnvironmentValues,
} from "@/features/environments/lib/environment-form";
import { FieldHelp } from "@/components/new-in-place";
import type { CreateInPlace } from "@/lib/create-in-place";
import { savedThen } from "@/lib/saved";
import { useServerErrors } from "@/lib/form-errors";
import { RemoveRowButton, AddRowButton } from "@/components/list-rows";

type Environment = Schemas["EnvironmentRead"];

// the kinds that hold one value a variable can take (the server refuses ssh keys here)
const SECRET_KINDS: readonly Schemas["KeyKind"][] = ["secret", "login_password", "vault_password"];

interface EnvironmentFormModalProps {
  projectId: number;
  /** null: a new environment */
  environment: Environment | null;
  onClose: () => void;
  /** the saved environment, before the dialog closes (a form that asked for it selects it) */
  onSaved?: (environment: Environment) => void;
  /** the key dialog a secret's key may be created with, in place (none: no "New key") */
  create?: Pick<CreateInPlace, "key">;
}

export function EnvironmentFormModal({
  projectId,
  environment,
  onClose,
  onSaved,
  create,
}: EnvironmentFormModalProps) {
  const [newKey, setNewKey] = useState(false);
  const save = useSaveEnvironment(projectId, environment?.id ?? null);
  const keys = useKeyOptions(projectId, SECRET_KINDS);
  const form = useForm<EnvironmentFormValues>({
    mode: "controlled",
    initialValues: toEnvironmentValues(environment),
  });
  const serverErrors = useServerErrors(form, { aliases: { extra_vars: "extra_vars_yaml" } });

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    save.mutate(
      toEnvironmentBody(values),
      savedThen("Environment", serverErrors, { onClose, onSaved }),
    );
  });

  return (
    <>
      <FormModal
        onClose={onClose}
        covered={newKey}
        title={environment ? `Edit environment “${environment.name}”` : "New environment"}
        size="xl"
        onSubmit={submit}
        error={serverErrors.message}
        submitLabel={environment ? "Save" : "Create environment"}
        pending={save.isPending}
      >
        <NameDescriptionFields form={form} lines="one" />
        <CodeTextarea
          label="Extra variables"
          description="YAML or JSON mapping, passed to ansible-playbook as extra vars"
          placeholder={'pg_version: 16\nmaintenance_window: "02:00"'}
          minRows={4}
          {...form.getInputProps("extra_vars_yaml")}
        />

        <Fieldset legend="Environment variables">
          <Stack gap="xs">
            {form.values.env_vars.length === 0 && (
              <Text size="sm" c="dimmed">
                None.
              </Text>
            )}
            {form.values.env_vars.map((row, index) => (
              <Group key={row.id} gap="xs" align="flex-start" wrap="nowrap">
                <TextInput
                  aria-label={`Variable ${index + 1} name`}
                  placeholder="NAME"
                  ff="monospace"
                  style={{ flex: 1 }}
                  spellCheck={false}
                  {...form.getInputProps(`env_vars.${index}.name`)}
                />
                <TextInput
                  aria-label={`Variable ${index + 1} value`}
                  placeholder="value"
                  style={{ flex: 2 }}
                  spellCheck={false}
                  {...form.getInputProps(`env_vars.${index}.value`)}
                />
                <RemoveRowButton
                  label={`Remove variable ${index + 1}`}
                  onClick={() => form.removeListItem("env_vars", index)}
                />
              </Group>
            ))}
            <Input.Error>{form.errors.env_vars}</Input.Error>
            <AddRowButton
              onClick={() => form.insertListItem("env_vars", { id: rowId(), name: "", value: "" })}
            >
              Add variable
            </AddRowButton>
          </Stack>
        </Fieldset>

        <Fieldset legend="Secrets from keys">
          <Stack gap="xs">
            <Text size="xs" c="dimmed">
              <FieldHelp
                text="The key's value becomes an environment variable or an extra var of the run; it is never shown here, and masked in run output."
                newLabel={create?.key ? "New key" : undefined}
                onNew={() => setNewKey(true)}
              />
            </Text>
            {form.values.secrets.map((row, index) => (
              <Group key={row.id} gap="xs" align="flex-start" wrap="wrap">
                <TextInput
                  aria-label={`Secret ${index + 1} name`}
                  placeholder="NAME"
                  ff="monospace"
                  style={{ flex: "1 1 140px" }}
                  spellCheck={false}
                  {...form.getInputProps(`secrets.${index}.name`)}
                />
                <Select
                  aria-label={`Secret ${index + 1} target`}
                  data={[
                    { value: "env", label: "Environment variable" },
                    { value: "extra_var", label: "Extra var" },
                  ]}
                  allowDeselect={false}
                  style={{ flex: "1 1 160px" }}
                  {...form.getInputProps(`secrets.${index}.target`)}
                />
                <Select
                  aria-label={`Secret ${index + 1} key`}
                  placeholder="Pick a key"
                  data={keys.data ?? []}
                  nothingFoundMessage="No secret, password or vault keys"
                  style={{ flex: "2 1 180px" }}
                  {...form.getInputProps(`secrets.${index}.key_id`)}
                  onChange={(value) => form.setFieldValue(`secrets.${index}.key_id`, value ?? "")}
                />
                <RemoveRowButton
                  label={`Remove secret ${index + 1}`}
                  onClick={() => form.removeListItem("secrets", index)}
                />
              </Group>
            ))}
            <Input.Error>{form.errors.secrets}</Input.Error>
            <AddRowButton
              onClick={() =>
                form.insertListItem("secrets", {
                  id: rowId(),
                  name: "",
                  target: "env",
                  key_id: "",
                })
              }
            >
              Add secret
            </AddRowButton>
          </Stack>
        </Fieldset>
      </FormModal>
      {newKey &&
        create?.key?.({
          kinds: SECRET_KINDS,
          onCreated: (id) => {
            // the first secret without a key takes it, else a new secret row does
            const empty = form.getValues().secrets.findIndex((row) => row.key_id === "");
            if (empty >= 0) form.setFieldValue(`secrets.${empty}.key_id`, String(id));
            else
              form.insertListItem("secrets", {
                id: rowId(),
                name: "",
                target: "env",
                key_id: String(id),
              });
          },
          onClose: () => setNewKey(false),
        })}
    </>
  );
}
