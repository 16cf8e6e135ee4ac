import { Badge, Button, Card, Code, Group, Stack, Text } from "@mantine/core";
import { type ReactNode, useState } from "react";
import { OlderButton } from "@/components/older-button";
import type { Schemas } from "@/api/client";
import { PLAN_PAGE, type PlanTaskEntry, usePlanTaskHosts } from "@/features/plans/api/plans";
import { moreLabel } from "@/features/plans/lib/paging";
import { plural } from "@/lib/format";

type HostItem = Schemas["PlanHostItem"];

/** One task of a plan (or of a drift) with its hosts given: would change or unknown, and per
 * host its reason or its diff. */
export function PlanTaskCard({ task }: { task: Schemas["PlanTask"] }) {
  return (
    <Card withBorder padding="sm">
      <TaskHeader task={task} />
      <Hosts hosts={task.hosts} />
    </Card>
  );
}

/** One task of a plan's paged list: its host count, and its hosts' diffs asked for when it is
 * opened (`open`: at once). */
export function PlanTaskEntryCard({
  projectId,
  runId,
  task,
  open: openAtOnce,
}: {
  projectId: number;
  runId: number;
  task: PlanTaskEntry;
  open: boolean;
}) {
  const [open, setOpen] = useState(openAtOnce);
  const hosts = usePlanTaskHosts(projectId, runId, task.key, open);
  const items = hosts.data?.pages.flatMap((page) => page.items) ?? [];
  const more = moreLabel(items.length, task.result_count, PLAN_PAGE, "host result");
  return (
    <Card withBorder padding="sm" aria-label={`Task ${task.task}`}>
      <TaskHeader task={task}>
        <Button size="compact-xs" variant="subtle" onClick={() => setOpen(!open)}>
          {open ? "Hide" : "Show"} {plural(task.host_count, "host")}
        </Button>
      </TaskHeader>
      {open && (
        <>
          {hosts.isPending && (
            <Text size="sm" c="dimmed" mt="xs">
              Loading the diffs
            </Text>
          )}
          {hosts.error && (
            <Text size="sm" c="red" mt="xs">
              {hosts.error.message}
            </Text>
          )}
          <Hosts hosts={items} />
          {more && (
            <OlderButton pages={hosts} mt="xs" size="compact-sm">
              {more}
            </OlderButton>
          )}
        </>
      )}
    </Card>
  );
}

function TaskHeader({
  task,
  children,
}: {
  task: { task: string; task_path: string; action: string; outcome: "change" | "unknown" };
  children?: ReactNode;
}) {
  return (
    <Group gap="xs" wrap="wrap">
      <Badge color={task.outcome === "unknown" ? "orange" : "yellow"} variant="light">
        {task.outcome === "unknown" ? "unknown" : "would change"}
      </Badge>
      <Text fw={500}>{task.task}</Text>
      <Text size="xs" c="dimmed" ff="monospace">
        {task.action} · {task.task_path}
      </Text>
      {children}
    </Group>
  );
}

function Hosts({ hosts }: { hosts: HostItem[] }) {
  if (hosts.length === 0) return null;
  return (
    <Stack gap={6} mt="xs">
      {hosts.map((host) => (
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
  );
}
