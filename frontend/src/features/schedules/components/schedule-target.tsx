import { Anchor, Badge, Group, Text } from "@mantine/core";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { paths } from "@/lib/paths";

interface ScheduleTargetProps {
  projectId: number;
  /** a schedule or a webhook: what it launches */
  schedule: Pick<
    Schemas["ScheduleRead"],
    "target_kind" | "template_id" | "template_name" | "workflow_id" | "workflow_name"
  >;
  size?: "xs" | "sm";
}

/** What a schedule or a webhook launches: its template or its workflow, linked; or "deleted". */
export function ScheduleTarget({ projectId, schedule: s, size = "sm" }: ScheduleTargetProps) {
  const workflow = s.target_kind === "workflow";
  const id = workflow ? (s.workflow_id ?? null) : s.template_id;
  const name = workflow ? s.workflow_name : s.template_name;
  return (
    <Group gap={6} wrap="nowrap">
      {workflow && (
        <Badge size="xs" variant="light" color="grape">
          workflow
        </Badge>
      )}
      {id === null ? (
        <Text size={size} c="dimmed">
          deleted {s.target_kind}
        </Text>
      ) : (
        <Anchor
          component={Link}
          to={workflow ? paths.workflow(projectId, id) : paths.template(projectId, id)}
          size={size}
        >
          {name}
        </Anchor>
      )}
    </Group>
  );
}
