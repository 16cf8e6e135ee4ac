import { Badge, Card, Code, Group, Stack, Text } from "@mantine/core";
import type { Schemas } from "@/api/client";

/** One task of a plan (or of a drift): would change or unknown, and per host its reason or
 * its diff. */
export function PlanTaskCard({ task }: { task: Schemas["PlanTask"] }) {
  return (
    <Card withBorder padding="sm">
      <Group gap="xs" wrap="wrap">
        <Badge color={task.outcome === "unknown" ? "orange" : "yellow"} variant="light">
          {task.outcome === "unknown" ? "unknown" : "would change"}
        </Badge>
        <Text fw={500}>{task.task}</Text>
        <Text size="xs" c="dimmed" ff="monospace">
          {task.action} · {task.task_path}
        </Text>
      </Group>
      <Stack gap={6} mt="xs">
        {task.hosts.map((host) => (
          <div key={`${host.host}:${host.counter}`}>
            <Text size="sm" ff="monospace">
              {host.host}
            </Text>
            {host.reason && (
              <Text size="sm" c="dimmed">
                {host.reason}
              </Text>
            )}
            {host.diff && (
              <Code block fz="xs" style={{ maxHeight: 320, overflow: "auto" }}>
                {host.diff}
              </Code>
            )}
          </div>
        ))}
      </Stack>
    </Card>
  );
}
