import { Alert, PasswordInput, TextInput, Textarea } from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import type { Schemas } from "@/api/client";
import { FormModal } from "@/components/form-modal";
import { type KeyUpdate, useUpdateKey } from "@/features/keys/api/update-key";
import { KEY_KINDS } from "@/features/keys/components/kinds";
import { useServerErrors } from "@/lib/form-errors";
import { NameDescriptionFields } from "@/components/name-description-fields";

type Key = Schemas["KeyRead"];

interface EditKeyValues {
  name: string;
  description: string;
  username: string;
  vault_id: string;
  private_key: string;
  passphrase: string;
  password: string;
  value: string;
}

/**
 * The body of a change: the kind's plain fields, and only the secret fields that were typed in
 * (an empty secret field keeps the stored value; the stored value is never sent to the console).
 */
export function toKeyUpdate(kind: Key["kind"], v: EditKeyValues): KeyUpdate {
  const body: KeyUpdate = { name: v.name, description: v.description };
  if (kind === "ssh" || kind === "login_password") body.username = v.username;
  if (kind === "vault_password") body.vault_id = v.vault_id;
  if (kind === "ssh" && v.private_key) {
    body.private_key = v.private_key;
    body.passphrase = v.passphrase;
  }
  if ((kind === "login_password" || kind === "vault_password") && v.password) {
    body.password = v.password;
  }
  if (kind === "secret" && v.value) body.value = v.value;
  return body;
}

interface EditKeyModalProps {
  projectId: number;
  keyRead: Key;
  onClose: () => void;
}

export function EditKeyModal({ projectId, keyRead, onClose }: EditKeyModalProps) {
  const update = useUpdateKey(projectId, keyRead.id);
  const form = useForm<EditKeyValues>({
    mode: "uncontrolled",
    initialValues: {
      name: keyRead.name,
      description: keyRead.description,
      username: keyRead.username,
      vault_id: keyRead.vault_id,
      private_key: "",
      passphrase: "",
      password: "",
      value: "",
    },
  });
  const serverErrors = useServerErrors(form);
  const { kind } = keyRead;

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    update.mutate(toKeyUpdate(kind, values), {
      onSuccess: (key) => {
        notifications.show({ color: "green", message: `Key “${key.name}” saved` });
        onClose();
      },
      onError: (error) => serverErrors.show(error),
    });
  });

  const secret = (field: keyof EditKeyValues, label: string) => (
    <PasswordInput
      label={label}
      placeholder="Leave empty to keep the stored value"
      autoComplete="new-password"
      key={form.key(field)}
      {...form.getInputProps(field)}
    />
  );

  return (
    <FormModal
      onClose={onClose}
      title={`Edit key “${keyRead.name}”`}
      size="lg"
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel="Save"
      pending={update.isPending}
    >
      <TextInput label="Kind" value={KEY_KINDS[kind]} readOnly variant="filled" />
      <NameDescriptionFields form={form} lines="one" />
      {(kind === "ssh" || kind === "login_password") && (
        <TextInput
          label="Username"
          autoComplete="off"
          key={form.key("username")}
          {...form.getInputProps("username")}
        />
      )}
      {kind === "vault_password" && (
        <TextInput
          label="Vault ID"
          key={form.key("vault_id")}
          {...form.getInputProps("vault_id")}
        />
      )}
      <Alert variant="light" color="gray">
        The stored secret is never shown. Type a new one to replace it.
      </Alert>
      {kind === "ssh" && (
        <>
          <Textarea
            label="New private key"
            autosize
            minRows={3}
            maxRows={12}
            spellCheck={false}
            placeholder="Leave empty to keep the stored key"
            styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
            key={form.key("private_key")}
            {...form.getInputProps("private_key")}
          />
          {secret("passphrase", "Passphrase of the new key")}
        </>
      )}
      {(kind === "login_password" || kind === "vault_password") &&
        secret("password", "New password")}
      {kind === "secret" && secret("value", "New value")}
    </FormModal>
  );
}
