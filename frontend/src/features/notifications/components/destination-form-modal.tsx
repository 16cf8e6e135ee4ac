import {
  Fieldset,
  Group,
  Input,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMediaQuery } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import type { Schemas } from "@/api/client";
import { FormModal } from "@/components/form-modal";
import { useSaveDestination } from "@/features/notifications/api/destinations";
import { useKeyOptions } from "@/api/queries/project-options";
import {
  type DestinationFormValues,
  KINDS,
  SECRET_OF,
  SECURITY,
  headerRow,
  toDestinationCreate,
  toDestinationUpdate,
  toDestinationValues,
} from "@/features/notifications/lib/destination-form";
import { useServerErrors } from "@/lib/form-errors";
import { RemoveRowButton, AddRowButton } from "@/components/list-rows";

type Destination = Schemas["DestinationRead"];

interface DestinationFormModalProps {
  projectId: number;
  /** null: a new destination */
  destination: Destination | null;
  onClose: () => void;
}

/** Where messages go: SMTP, Slack, Teams or a JSON webhook, with its secret from the keys. */
export function DestinationFormModal({
  projectId,
  destination,
  onClose,
}: DestinationFormModalProps) {
  const phone = useMediaQuery("(max-width: 48em)");
  const save = useSaveDestination(projectId);
  const form = useForm<DestinationFormValues>({
    mode: "controlled",
    initialValues: toDestinationValues(destination),
  });
  const kind = form.values.kind;
  // a create body is tagged by kind: pydantic puts it first in an error's location
  const serverErrors = useServerErrors(form, { unionTag: kind });
  const secret = SECRET_OF[kind];
  const keyData = useKeyOptions(projectId, secret.kinds).data ?? [];

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    const onSuccess = (saved: Destination) => {
      notifications.show({ color: "green", message: `Destination “${saved.name}” saved` });
      onClose();
    };
    const onError = (error: Error) => serverErrors.show(error);
    if (destination) {
      save.mutate(
        { destinationId: destination.id, body: toDestinationUpdate(values) },
        { onSuccess, onError },
      );
    } else {
      save.mutate(
        { destinationId: null, body: toDestinationCreate(values) },
        { onSuccess, onError },
      );
    }
  });

  const c = form.values.config;
  return (
    <FormModal
      onClose={onClose}
      title={destination ? `Edit destination “${destination.name}”` : "New destination"}
      size="lg"
      fullScreen={phone}
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel={destination ? "Save" : "Create destination"}
      pending={save.isPending}
    >
      <Select
        label="Kind"
        data={KINDS}
        allowDeselect={false}
        disabled={destination !== null}
        {...form.getInputProps("kind")}
        onChange={(value) => {
          form.setFieldValue("kind", (value ?? "email") as DestinationFormValues["kind"]);
          form.setFieldValue("secret_key_id", "");
        }}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Name" required data-autofocus {...form.getInputProps("name")} />
        <TextInput label="Description" {...form.getInputProps("description")} />
      </SimpleGrid>

      {kind === "email" && (
        <Fieldset legend="SMTP">
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput
                label="Host"
                required
                placeholder="smtp.example.com"
                {...form.getInputProps("config.host")}
              />
              <NumberInput
                label="Port"
                min={1}
                max={65535}
                allowDecimal={false}
                {...form.getInputProps("config.port")}
              />
              <Select
                label="Security"
                data={SECURITY}
                allowDeselect={false}
                {...form.getInputProps("config.security")}
              />
            </SimpleGrid>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Username"
                description="Empty: the key's username, or no login"
                autoComplete="off"
                {...form.getInputProps("config.username")}
              />
              <TextInput
                label="From"
                required
                placeholder="steward@example.com"
                {...form.getInputProps("config.from_address")}
              />
            </SimpleGrid>
            <TagsInput
              label="To"
              required
              description="Addresses, Enter after each"
              placeholder="dba-team@example.com"
              splitChars={[",", " ", ";"]}
              {...form.getInputProps("config.to")}
            />
            <Switch
              label="Verify the server's TLS certificate"
              {...form.getInputProps("config.verify_tls", { type: "checkbox" })}
            />
          </Stack>
        </Fieldset>
      )}

      {kind === "webhook" && (
        <Fieldset legend="Request">
          <Stack gap="sm">
            <TextInput
              label="URL"
              required
              placeholder="https://hooks.example.com/steward"
              {...form.getInputProps("config.url")}
            />
            <Text size="sm" fw={500}>
              Extra headers
            </Text>
            {c.headers.map((row, index) => (
              <Group key={row.id} gap="xs" wrap="nowrap">
                <TextInput
                  aria-label={`Header ${index + 1} name`}
                  placeholder="X-Team"
                  ff="monospace"
                  style={{ flex: 1 }}
                  {...form.getInputProps(`config.headers.${index}.name`)}
                />
                <TextInput
                  aria-label={`Header ${index + 1} value`}
                  style={{ flex: 1 }}
                  {...form.getInputProps(`config.headers.${index}.value`)}
                />
                <RemoveRowButton
                  label={`Remove header ${index + 1}`}
                  onClick={() => form.removeListItem("config.headers", index)}
                />
              </Group>
            ))}
            <Input.Error>{form.errors["config.headers"]}</Input.Error>
            <AddRowButton onClick={() => form.insertListItem("config.headers", headerRow())}>
              Add header
            </AddRowButton>
          </Stack>
        </Fieldset>
      )}

      <Select
        label={secret.label}
        description={secret.description}
        placeholder="Pick a key"
        required={kind !== "email"}
        clearable={kind === "email"}
        data={keyData}
        nothingFoundMessage="No such key: add one under Keys"
        {...form.getInputProps("secret_key_id")}
        onChange={(value) => form.setFieldValue("secret_key_id", value ?? "")}
      />
      <Switch
        label="Enabled"
        description="Off: nothing is sent to it (a test still is)"
        {...form.getInputProps("enabled", { type: "checkbox" })}
      />
    </FormModal>
  );
}
