import {
  ActionIcon,
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { DeleteButton } from "@/components/confirm-delete-modal";
import { Fact } from "@/components/fact";
import { CheckIcon, CopyIcon } from "@/components/icons";
import { useTemplate } from "@/api/queries/project-options";
import { useWebhook } from "@/features/webhooks/api/get-webhooks";
import { useDeleteWebhook, useRotateWebhookId } from "@/features/webhooks/api/save-webhook";
import { DeliveriesTable } from "@/features/webhooks/components/deliveries-table";
import { TestDeliveryModal } from "@/features/webhooks/components/test-delivery-modal";
import { WebhookFormModal } from "@/features/webhooks/components/webhook-form-modal";
import { TriggerState } from "@/components/trigger-target";
import { TriggerTargetLink } from "@/components/trigger-target";
import { AUTH_SCHEMES, SENDER_SETUP } from "@/features/webhooks/lib/webhook-form";
import { RecordHeader } from "@/components/record-header";
import { QueryState } from "@/components/query-state";

interface WebhookDetailsProps {
  projectId: number;
  webhookId: number;
  /** project-wide template:write: may change it and see its deliveries (else its template says) */
  canWrite: boolean;
  /** project-wide run:launch: saving and a launching test need it (else its template says) */
  canLaunch: boolean;
  /** the delivery open in the drawer (kept in the URL) */
  deliveryId: number | null;
  onOpenDelivery: (deliveryId: number | null) => void;
  onDeleted: () => void;
}

/** A webhook: its URL to give the sender, what it matches, its deliveries and a test button. */
export function WebhookDetails(props: WebhookDetailsProps) {
  const { projectId, webhookId, deliveryId, onOpenDelivery, onDeleted } = props;
  const webhook = useWebhook(projectId, webhookId);
  const permissions = useTemplate(projectId, webhook.data?.template_id ?? null).data?.permissions;
  const canWrite = props.canWrite || (permissions?.includes("write") ?? false);
  const canLaunch = props.canLaunch || (permissions?.includes("run") ?? false);
  const remove = useDeleteWebhook(projectId);
  const rotate = useRotateWebhookId(projectId);
  const [editing, setEditing] = useState(false);
  const [testing, setTesting] = useState(false);
  const [rotating, setRotating] = useState(false);

  return (
    <QueryState
      query={webhook}
      loading="Loading the webhook"
      notFound="Webhook not found"
      notFoundText="It does not exist, or what it launches is hidden from you."
    >
      {(w) => (
        <Stack>
          <RecordHeader
            title={w.name}
            badges={<TriggerState trigger={w} />}
            actions={
              canWrite && (
                <Group gap="xs">
                  <Button onClick={() => setTesting(true)}>Send test delivery</Button>
                  {canLaunch && (
                    <Button variant="default" onClick={() => setEditing(true)}>
                      Edit
                    </Button>
                  )}
                  <DeleteButton
                    subject={`webhook “${w.name}”`}
                    consequence="Its URL stops answering and its deliveries are deleted; the runs it launched stay."
                    onConfirm={() => remove.mutateAsync(w.id).then(onDeleted)}
                  />
                </Group>
              )
            }
          >
            <Text size="sm" c="dimmed">
              Webhook {w.id} of {w.target_kind === "workflow" ? "workflow " : ""}
              <TriggerTargetLink projectId={projectId} target={w} tab="webhooks" inline />
              {w.description ? ` — ${w.description}` : ""}
            </Text>
          </RecordHeader>

          {w.disabled_reason && (
            <Alert color="red" title="Steward turned this webhook off" role="alert">
              {w.disabled_reason}
            </Alert>
          )}

          <Paper withBorder p="md">
            <Stack gap="sm">
              <Fact label="Receive URL">
                <Group gap="xs" wrap="wrap" align="center">
                  <Code style={{ wordBreak: "break-all" }} aria-label="Receive URL">
                    {w.url}
                  </Code>
                  <CopyButton value={w.url}>
                    {({ copied, copy }) => (
                      <Tooltip label={copied ? "Copied" : "Copy"}>
                        <ActionIcon
                          variant="light"
                          color={copied ? "green" : undefined}
                          onClick={copy}
                          aria-label="Copy the receive URL"
                        >
                          {copied ? <CheckIcon /> : <CopyIcon />}
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </CopyButton>
                  {canWrite && (
                    <Button size="compact-xs" variant="subtle" onClick={() => setRotating(true)}>
                      New URL
                    </Button>
                  )}
                </Group>
              </Fact>
              <Text size="xs" c="dimmed">
                {SENDER_SETUP[w.auth]}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
                <Fact label="Authentication">
                  {AUTH_SCHEMES.find((a) => a.value === w.auth)?.label ?? w.auth}
                </Fact>
                <Fact label="Launches as">{w.owner || "nobody (owner deleted)"}</Fact>
                <Fact label="Rate limit">{w.rate_limit_per_minute} per minute</Fact>
                <Fact label="Conditions">
                  {w.matchers.length === 0 ? (
                    "any authenticated delivery"
                  ) : (
                    <Stack gap={2}>
                      {w.matchers.map((m, i) => (
                        <Code key={i}>
                          {m.source} {m.path} {m.op.replace("_", " ")}
                          {m.op === "exists" ? "" : ` ${JSON.stringify(m.value)}`}
                        </Code>
                      ))}
                    </Stack>
                  )}
                </Fact>
                <Fact label="Extra vars">
                  {w.target_kind === "workflow" ? (
                    "none: each node runs with its own launch values"
                  ) : Object.keys(w.extractors).length === 0 ? (
                    "none"
                  ) : (
                    <Stack gap={2}>
                      {Object.entries(w.extractors).map(([variable, path]) => (
                        <Code key={variable}>
                          {variable} ← {path}
                        </Code>
                      ))}
                    </Stack>
                  )}
                </Fact>
                <Fact label="Ref from">
                  {w.ref_from ? (
                    <Code>{w.ref_from}</Code>
                  ) : w.target_kind === "workflow" ? (
                    "each node's template's"
                  ) : (
                    "the repository's"
                  )}
                </Fact>
              </SimpleGrid>
            </Stack>
          </Paper>

          <Stack gap="xs">
            <Title order={4}>Deliveries</Title>
            {canWrite ? (
              <DeliveriesTable
                projectId={projectId}
                webhookId={w.id}
                openId={deliveryId}
                onOpen={onOpenDelivery}
              />
            ) : (
              <Text size="sm" c="dimmed">
                Deliveries (their headers and bodies) are shown to who may change the template.
              </Text>
            )}
          </Stack>

          {editing && (
            <WebhookFormModal
              projectId={projectId}
              webhook={w}
              templateId={w.template_id}
              onClose={() => setEditing(false)}
            />
          )}
          {testing && (
            <TestDeliveryModal
              projectId={projectId}
              webhook={w}
              canLaunch={canLaunch}
              onClose={() => setTesting(false)}
              onSent={() => undefined}
            />
          )}
          <Modal
            opened={rotating}
            onClose={() => setRotating(false)}
            title="Give this webhook a new URL?"
            centered
          >
            <Stack>
              <Text size="sm">
                The current URL stops answering at once: update the sender with the new one.
              </Text>
              {rotate.isError && (
                <Alert color="red" variant="light">
                  {rotate.error.message}
                </Alert>
              )}
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setRotating(false)}>
                  Cancel
                </Button>
                <Button
                  loading={rotate.isPending}
                  onClick={() =>
                    rotate.mutate(w.id, {
                      onSuccess: () => {
                        setRotating(false);
                        notifications.show({ message: "The webhook has a new URL" });
                      },
                    })
                  }
                >
                  New URL
                </Button>
              </Group>
            </Stack>
          </Modal>
        </Stack>
      )}
    </QueryState>
  );
}
