import { Alert, Anchor, Code, Group, Input, Stack, Switch, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMediaQuery } from "@mantine/hooks";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { CodeTextarea } from "@/components/code-textarea";
import { FormModal } from "@/components/form-modal";
import { useTestDelivery } from "@/features/webhooks/api/deliveries";
import { OutcomeBadge } from "@/features/webhooks/components/outcome-badge";
import { rowId } from "@/features/webhooks/lib/webhook-form";
import { useServerErrors } from "@/lib/form-errors";
import { parseJsonObject } from "@/lib/json-object";
import { paths } from "@/lib/paths";
import { RemoveRowButton, AddRowButton } from "@/components/list-rows";

type Webhook = Schemas["WebhookRead"];

interface TestValues {
  body: string;
  headers: { id: string; name: string; value: string }[];
  sign: boolean;
  launch: boolean;
}

/** The body of a test delivery: empty text sends the scheme's sample push. */
export function toTestDelivery(v: TestValues): Schemas["TestDelivery"] | { error: string } {
  const body = v.body.trim() ? parseJsonObject(v.body) : null;
  if (typeof body === "string") return { error: body };
  return {
    body,
    headers: Object.fromEntries(
      v.headers.filter((h) => h.name.trim()).map((h) => [h.name.trim(), h.value]),
    ),
    sign: v.sign,
    launch: v.launch,
  };
}

interface TestDeliveryModalProps {
  projectId: number;
  webhook: Webhook;
  /** may launch the template: the "really launch" switch */
  canLaunch: boolean;
  onClose: () => void;
  onSent: (delivery: Schemas["DeliveryRead"]) => void;
}

/**
 * Send a delivery through the same checks as a real one, signed by the server with the
 * webhook's secret. A dry run says what would launch; the answer stays shown to try again.
 */
export function TestDeliveryModal(props: TestDeliveryModalProps) {
  const { projectId, webhook, canLaunch, onClose, onSent } = props;
  const phone = useMediaQuery("(max-width: 48em)");
  const send = useTestDelivery(projectId, webhook.id);
  const form = useForm<TestValues>({
    mode: "controlled",
    initialValues: { body: "", headers: [], sign: true, launch: false },
  });
  const serverErrors = useServerErrors(form);
  const result = send.data;

  const submit = form.onSubmit((values) => {
    serverErrors.clear();
    const body = toTestDelivery(values);
    if ("error" in body) {
      form.setFieldError("body", body.error);
      return;
    }
    send.mutate(body, { onSuccess: onSent, onError: (error) => serverErrors.show(error) });
  });

  return (
    <FormModal
      onClose={onClose}
      title={`Test delivery to “${webhook.name}”`}
      size="lg"
      fullScreen={phone}
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel={form.values.launch ? "Send and launch" : "Send test delivery"}
      pending={send.isPending}
    >
      <CodeTextarea
        label="Body"
        description={`JSON; leave empty for a sample ${webhook.auth} push to main`}
        placeholder='{ "ref": "refs/heads/main" }'
        minRows={4}
        {...form.getInputProps("body")}
      />
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          Extra headers
        </Text>
        {form.values.headers.map((row, index) => (
          <Group key={row.id} gap="xs" wrap="nowrap">
            <TextInput
              aria-label={`Header ${index + 1} name`}
              placeholder="X-GitHub-Event"
              ff="monospace"
              style={{ flex: 1 }}
              {...form.getInputProps(`headers.${index}.name`)}
            />
            <TextInput
              aria-label={`Header ${index + 1} value`}
              placeholder="push"
              style={{ flex: 1 }}
              {...form.getInputProps(`headers.${index}.value`)}
            />
            <RemoveRowButton
              label={`Remove header ${index + 1}`}
              onClick={() => form.removeListItem("headers", index)}
            />
          </Group>
        ))}
        <Input.Error>{form.errors.headers}</Input.Error>
        <AddRowButton
          onClick={() => form.insertListItem("headers", { id: rowId(), name: "", value: "" })}
        >
          Add header
        </AddRowButton>
      </Stack>
      <Switch
        label="Sign it with the webhook's secret"
        description="Off: see how an unsigned delivery is refused"
        {...form.getInputProps("sign", { type: "checkbox" })}
      />
      {canLaunch && (
        <Switch
          label="Really launch the run"
          description="Off: a dry run, which only says whether it would launch"
          {...form.getInputProps("launch", { type: "checkbox" })}
        />
      )}
      {result && (
        <Alert
          color={result.outcome === "launched" || result.outcome === "matched" ? "green" : "yellow"}
          title={
            <Group gap="xs">
              <OutcomeBadge outcome={result.outcome} />
              <Text span size="sm">
                delivery {result.id}, answered HTTP {result.status_code}
              </Text>
            </Group>
          }
          role="status"
        >
          <Stack gap={4}>
            <Text size="sm">{result.reason}</Text>
            {result.run_id !== null && (
              <Anchor component={Link} to={paths.run(projectId, result.run_id)} size="sm">
                Run #{result.run_id}
              </Anchor>
            )}
            {result.workflow_run_id != null && (
              <Anchor
                component={Link}
                to={paths.workflowRun(projectId, result.workflow_run_id)}
                size="sm"
              >
                Workflow run #{result.workflow_run_id}
              </Anchor>
            )}
            {Object.keys(result.launch).length > 0 && (
              <Code block fz="xs">
                {JSON.stringify(result.launch, null, 2)}
              </Code>
            )}
          </Stack>
        </Alert>
      )}
    </FormModal>
  );
}
