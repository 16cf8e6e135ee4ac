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
import type { Schemas } from "@/api/client";
import { FormModal } from "@/components/form-modal";
import { useKeyOptions } from "@/api/queries/project-options";
import {
  type TriggerFormProps,
  TriggerLaunchValues,
  TriggerTargetFields,
} from "@/components/trigger-target";
import { useSaveWebhook } from "@/features/webhooks/api/save-webhook";
import {
  AUTH_SCHEMES,
  MATCH_OPS,
  type WebhookFormValues,
  newMatcher,
  rowId,
  toNewWebhookBody,
  toWebhookBody,
  toWebhookValues,
} from "@/features/webhooks/lib/webhook-form";
import { savedThen } from "@/lib/saved";
import { useServerErrors } from "@/lib/form-errors";
import { RemoveRowButton, AddRowButton } from "@/components/list-rows";

type Webhook = Schemas["WebhookRead"];

interface WebhookFormModalProps extends TriggerFormProps<Webhook> {
  /** null: a new webhook */
  webhook: Webhook | null;
  /** the template of a new webhook (the template page); null: picked in the form */
  templateId: number | null;
}

export function WebhookFormModal(props: WebhookFormModalProps) {
  const { projectId, webhook, templateId, onClose, onSaved } = props;
  const phone = useMediaQuery("(max-width: 48em)");
  const save = useSaveWebhook(projectId, webhook?.id ?? null);
  // a webhook's shared secret is one of the project's `secret` keys
  const keys = useKeyOptions(projectId, ["secret"], { label: (key) => key.name });
  const picking = webhook === null && templateId === null;
  const form = useForm<WebhookFormValues>({
    mode: "controlled",
    initialValues: toWebhookValues(webhook, templateId),
  });
  const serverErrors = useServerErrors(form);
  const ofWorkflow = form.values.target_kind === "workflow";

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    const checked = webhook === null ? toNewWebhookBody(values) : { body: toWebhookBody(values) };
    if ("errors" in checked) {
      form.setErrors(checked.errors);
      return;
    }
    save.mutate(checked.body, savedThen("Webhook", serverErrors, { onClose, onSaved }));
  });

  return (
    <FormModal
      onClose={onClose}
      title={webhook ? `Edit webhook “${webhook.name}”` : "New webhook"}
      size="xl"
      fullScreen={phone}
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel={webhook ? "Save" : "Create webhook"}
      pending={save.isPending}
    >
      <TriggerTargetFields
        projectId={projectId}
        picking={picking}
        values={form.values}
        errors={form.errors}
        onChange={(field, value) => form.setFieldValue(field, value)}
        // a webhook may be made for the templates the caller may change and launch
        permissions={["write", "run"]}
        help={{
          template: "What a matching delivery launches",
          noTemplate: "No template you may change and launch",
          workflow:
            "A matching delivery launches a run of it; each node runs with its own launch values",
        }}
        launches={
          ofWorkflow ? `workflow “${webhook?.workflow_name || "a deleted workflow"}”` : undefined
        }
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Name" required data-autofocus {...form.getInputProps("name")} />
        <TextInput label="Description" {...form.getInputProps("description")} />
        <Select
          label="Sender authentication"
          data={AUTH_SCHEMES}
          allowDeselect={false}
          {...form.getInputProps("auth")}
        />
        <Select
          label="Secret"
          description="A secret key of the project; never shown"
          placeholder="Pick a secret key"
          required
          data={keys.data ?? []}
          nothingFoundMessage="No secret keys: add one under Keys"
          {...form.getInputProps("secret_key_id")}
          onChange={(value) => form.setFieldValue("secret_key_id", value ?? "")}
        />
      </SimpleGrid>

      <Fieldset legend="Launch only when">
        <Stack gap="xs">
          <Text size="xs" c="dimmed">
            Every condition must hold. Body paths are dotted (repository.full_name, commits.0.id); a
            body value that is JSON (true, 42, "42") is compared as that value.
          </Text>
          {form.values.matchers.length === 0 && (
            <Text size="sm" c="dimmed">
              No condition: every authenticated delivery launches.
            </Text>
          )}
          {form.values.matchers.map((row, index) => (
            <Stack key={row.id} gap={2}>
              <Group gap="xs" align="flex-start" wrap="wrap">
                <Select
                  aria-label={`Condition ${index + 1} source`}
                  data={[
                    { value: "body", label: "Body" },
                    { value: "header", label: "Header" },
                  ]}
                  allowDeselect={false}
                  w={110}
                  {...form.getInputProps(`matchers.${index}.source`)}
                />
                <TextInput
                  aria-label={`Condition ${index + 1} path`}
                  placeholder={row.source === "header" ? "X-GitHub-Event" : "ref"}
                  ff="monospace"
                  spellCheck={false}
                  style={{ flex: "1 1 140px" }}
                  {...form.getInputProps(`matchers.${index}.path`)}
                />
                <Select
                  aria-label={`Condition ${index + 1} test`}
                  data={MATCH_OPS}
                  allowDeselect={false}
                  w={160}
                  {...form.getInputProps(`matchers.${index}.op`)}
                />
                {row.op === "one_of" ? (
                  <TagsInput
                    aria-label={`Condition ${index + 1} values`}
                    placeholder="Enter to add"
                    style={{ flex: "2 1 180px" }}
                    {...form.getInputProps(`matchers.${index}.values`)}
                  />
                ) : row.op !== "exists" ? (
                  <TextInput
                    aria-label={`Condition ${index + 1} value`}
                    placeholder={row.op === "glob" ? "refs/tags/v*" : "refs/heads/main"}
                    ff="monospace"
                    spellCheck={false}
                    style={{ flex: "2 1 180px" }}
                    {...form.getInputProps(`matchers.${index}.value`)}
                  />
                ) : null}
                <RemoveRowButton
                  label={`Remove condition ${index + 1}`}
                  onClick={() => form.removeListItem("matchers", index)}
                />
              </Group>
              <Input.Error>{form.errors[`matchers.${index}`]}</Input.Error>
            </Stack>
          ))}
          <Input.Error>{form.errors.matchers}</Input.Error>
          <AddRowButton onClick={() => form.insertListItem("matchers", newMatcher())}>
            Add condition
          </AddRowButton>
        </Stack>
      </Fieldset>

      <TriggerLaunchValues
        ofWorkflow={ofWorkflow}
        workflowNote="A workflow takes nothing from the body: each of its nodes runs with its own launch values."
        legend="Extra vars from the body"
        help="Each becomes an extra var (or survey answer) of the run, as untrusted data."
      >
        {form.values.extractors.map((row, index) => (
          <Group key={row.id} gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              aria-label={`Variable ${index + 1} name`}
              placeholder="commit_message"
              ff="monospace"
              spellCheck={false}
              style={{ flex: 1 }}
              {...form.getInputProps(`extractors.${index}.variable`)}
            />
            <TextInput
              aria-label={`Variable ${index + 1} body path`}
              placeholder="head_commit.message"
              ff="monospace"
              spellCheck={false}
              style={{ flex: 2 }}
              {...form.getInputProps(`extractors.${index}.path`)}
            />
            <RemoveRowButton
              label={`Remove variable ${index + 1}`}
              onClick={() => form.removeListItem("extractors", index)}
            />
          </Group>
        ))}
        <Input.Error>{form.errors.extractors}</Input.Error>
        <AddRowButton
          onClick={() => form.insertListItem("extractors", { id: rowId(), variable: "", path: "" })}
        >
          Add variable
        </AddRowButton>
      </TriggerLaunchValues>

      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {!ofWorkflow && (
          <TextInput
            label="Ref from"
            description="Body path of the branch, tag or commit to run (if the template allows a ref)"
            placeholder="after"
            ff="monospace"
            spellCheck={false}
            {...form.getInputProps("ref_from")}
          />
        )}
        <NumberInput
          label="Deliveries per minute"
          description="More are refused (429)"
          min={1}
          max={1000}
          allowDecimal={false}
          {...form.getInputProps("rate_limit_per_minute")}
        />
      </SimpleGrid>
      <Switch label="Enabled" {...form.getInputProps("enabled", { type: "checkbox" })} />
    </FormModal>
  );
}
