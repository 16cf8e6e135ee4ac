import { PasswordInput, Select, TextInput, Textarea } from "@mantine/core";
import { useForm } from "@mantine/form";
import type { Schemas } from "@/api/client";
import { FormModal } from "@/components/form-modal";
import { type KeyCreate, useCreateKey } from "@/features/keys/api/create-key";
import { KEY_KINDS, type KeyKind } from "@/features/keys/components/kinds";
import { useCreateDialog } from "@/lib/create-dialog";

interface KeyFormValues {
  kind: KeyKind;
  name: string;
  description: string;
  username: string;
  private_key: string;
  passphrase: string;
  password: string;
  vault_id: string;
  value: string;
}

const EMPTY: KeyFormValues = {
  kind: "ssh",
  name: "",
  description: "",
  username: "",
  private_key: "",
  passphrase: "",
  password: "",
  vault_id: "",
  value: "",
};

/** Only the fields of the chosen kind go to the server (it refuses unknown ones). */
function toBody(v: KeyFormValues): KeyCreate {
  const common = { name: v.name, description: v.description };
  switch (v.kind) {
    case "ssh":
      return {
        ...common,
        kind: v.kind,
        username: v.username,
        private_key: v.private_key,
        passphrase: v.passphrase,
      };
    case "login_password":
      return { ...common, kind: v.kind, username: v.username, password: v.password };
    case "vault_password":
      return { ...common, kind: v.kind, vault_id: v.vault_id, password: v.password };
    case "secret":
      return { ...common, kind: v.kind, value: v.value };
  }
}

interface CreateKeyModalProps {
  projectId: number;
  opened: boolean;
  onClose: () => void;
  /** the kinds offered (a form's field takes some only); all of them when not given */
  kinds?: readonly KeyKind[];
  /** the stored key, before the dialog closes (a form that asked for it selects it) */
  onCreated?: (key: Schemas["KeyRead"]) => void;
}

export function CreateKeyModal({
  projectId,
  opened,
  onClose,
  kinds,
  onCreated,
}: CreateKeyModalProps) {
  const offered = Object.entries(KEY_KINDS)
    .filter(([value]) => !kinds || kinds.includes(value as KeyKind))
    .map(([value, label]) => ({ value, label }));
  // controlled: the fields shown follow the kind
  const form = useForm<KeyFormValues>({
    mode: "controlled",
    initialValues: { ...EMPTY, kind: kinds?.[0] ?? EMPTY.kind },
  });
  const { kind } = form.values;
  const dialog = useCreateDialog(form, useCreateKey(projectId), {
    toBody,
    created: (key) => `Key “${key.name}” stored`,
    onCreated,
    onClose,
    errorOptions: (values) => ({ unionTag: values.kind }),
  });

  const secret = (field: keyof KeyFormValues, label: string, required = true) => (
    <PasswordInput
      label={label}
      required={required}
      autoComplete="new-password"
      {...form.getInputProps(field)}
    />
  );

  return (
    <FormModal opened={opened} title="New key" size="lg" submitLabel="Store key" {...dialog}>
      <Select label="Kind" data={offered} allowDeselect={false} {...form.getInputProps("kind")} />
      <TextInput label="Name" required data-autofocus {...form.getInputProps("name")} />
      <TextInput label="Description" {...form.getInputProps("description")} />
      {(kind === "ssh" || kind === "login_password") && (
        <TextInput label="Username" autoComplete="off" {...form.getInputProps("username")} />
      )}
      {kind === "ssh" && (
        <>
          <Textarea
            label="Private key"
            required
            autosize
            minRows={4}
            maxRows={12}
            spellCheck={false}
            styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
            placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
            {...form.getInputProps("private_key")}
          />
          {secret("passphrase", "Passphrase", false)}
        </>
      )}
      {kind === "vault_password" && (
        <TextInput label="Vault ID" {...form.getInputProps("vault_id")} />
      )}
      {(kind === "login_password" || kind === "vault_password") && secret("password", "Password")}
      {kind === "secret" && secret("value", "Value")}
    </FormModal>
  );
}
