import { Anchor, Badge, Group, Text } from "@mantine/core";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { paths } from "@/lib/paths";

interface WebhookTargetProps {
  projectId: number;
  webhook: Pick<
    Schemas["WebhookRead"],
    "target_kind" | "template_id" | "template_name" | "workflow_id" | "workflow_name"
  >;
  /** the template page's tab to open */
  tab?: "webhooks";
  /** inside a sentence: the link alone, no badge */
  inline?: boolean;
}

/** What a webhook launches: its template or its workflow, linked. */
export function WebhookTarget({ projectId, webhook: w, tab, inline = false }: WebhookTargetProps) {
  const workflow = w.target_kind === "workflow";
  const id = workflow ? (w.workflow_id ?? null) : w.template_id;
  const link =
    id === null ? (
      <Text span size="sm" c="dimmed">
        a deleted {w.target_kind}
      </Text>
    ) : (
      <Anchor
        component={Link}
        to={workflow ? paths.workflow(projectId, id) : paths.template(projectId, id, tab)}
        size="sm"
      >
        {workflow ? w.workflow_name : w.template_name}
      </Anchor>
    );
  if (inline) return link;
  return (
    <Group gap={6} wrap="nowrap">
      {workflow && (
        <Badge size="xs" variant="light" color="grape">
          workflow
        </Badge>
      )}
      {link}
    </Group>
  );
}
