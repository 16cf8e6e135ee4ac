import {
  Anchor,
  Badge,
  Code,
  Collapse,
  Group,
  Paper,
  Stack,
  Text,
  UnstyledButton,
} from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { Link } from "react-router";
import type { Schemas } from "@/api/client";
import { useMessages } from "@/features/notifications/api/messages";
import { eventLabel } from "@/features/notifications/lib/events";
import { formatDateTime } from "@/lib/format";
import { paths } from "@/lib/paths";
import { type Column, ColumnsTable } from "@/components/columns-table";
import { OlderButton } from "@/components/older-button";
import { QueryState } from "@/components/query-state";

type Message = Schemas["MessageRead"];

const STATUS_COLORS: Record<Schemas["MessageStatus"], string> = {
  pending: "yellow",
  sending: "blue",
  sent: "green",
  failed: "red",
};

const ATTEMPT_COLUMNS: readonly Column<Schemas["AttemptRead"]>[] = [
  { key: "at", header: "When", cell: (a) => formatDateTime(a.at) },
  {
    key: "ok",
    header: "Result",
    cell: (a) => (
      <Badge size="xs" color={a.ok ? "green" : "red"} variant="light">
        {a.ok ? "delivered" : "failed"}
      </Badge>
    ),
  },
  { key: "status", header: "Answer", cell: (a) => a.status || "—" },
  {
    key: "error",
    header: "Error",
    cell: (a) => <span style={{ wordBreak: "break-word" }}>{a.error || "—"}</span>,
  },
  { key: "took", header: "Took", cell: (a) => `${a.duration_ms} ms` },
];

export function AttemptsTable({ attempts }: { attempts: Schemas["AttemptRead"][] }) {
  if (attempts.length === 0) {
    return (
      <Text size="xs" c="dimmed">
        No attempt yet.
      </Text>
    );
  }
  return (
    <ColumnsTable
      label="Attempts"
      columns={ATTEMPT_COLUMNS}
      rows={attempts}
      rowKey={(a, i) => `${a.at}-${i}`}
      minWidth={300}
      fz="xs"
      verticalSpacing={2}
      withTableBorder
    />
  );
}

function MessageRow({ projectId, message }: { projectId: number; message: Message }) {
  const [open, toggle] = useDisclosure(message.event === "test");
  const m = message;
  return (
    <Paper withBorder p="sm" aria-label={`Message ${m.id}`} component="section">
      <Stack gap={4}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap">
            <Badge color={STATUS_COLORS[m.status]} variant="light">
              {m.status}
            </Badge>
            <Text size="sm" fw={500}>
              {m.event === "test" ? "Test message" : eventLabel(m.event)}
            </Text>
            {m.run_id !== null && (
              <Anchor component={Link} to={paths.run(projectId, m.run_id)} size="sm">
                Run #{m.run_id}
              </Anchor>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {formatDateTime(m.created_at)}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {m.attempt_count === 1 ? "1 attempt" : `${m.attempt_count} attempts`}
          {m.sent_at ? ` · sent ${formatDateTime(m.sent_at)}` : ""}
          {m.next_attempt_at ? ` · next attempt ${formatDateTime(m.next_attempt_at)}` : ""}
        </Text>
        {m.last_error && (
          <Text size="xs" c="red">
            {m.last_error}
          </Text>
        )}
        <UnstyledButton onClick={toggle.toggle} aria-expanded={open} fz="xs" c="dimmed">
          {open ? "Hide" : "Show"} attempts and content
        </UnstyledButton>
        <Collapse in={open}>
          <Stack gap="xs">
            <AttemptsTable attempts={m.attempts} />
            {Object.keys(m.content).length > 0 && (
              <Code block fz="xs">
                {JSON.stringify(m.content, null, 2)}
              </Code>
            )}
          </Stack>
        </Collapse>
      </Stack>
    </Paper>
  );
}

/** A destination's messages, newest first, each with its attempts (kept fresh while sending). */
export function MessagesList({
  projectId,
  destinationId,
}: {
  projectId: number;
  destinationId: number;
}) {
  const messages = useMessages(projectId, destinationId);
  return (
    <QueryState query={messages} loading="Loading messages" failed="Could not load messages" small>
      {(data) => {
        const items = data.pages.flatMap((page) => page.items);
        return (
          <Stack gap="xs">
            {items.length === 0 && (
              <Text size="sm" c="dimmed">
                No message yet: send a test, or wait for a run its subscriptions ask about.
              </Text>
            )}
            {items.map((m) => (
              <MessageRow key={m.id} projectId={projectId} message={m} />
            ))}
            {messages.hasNextPage && (
              <Group>
                <OlderButton pages={messages} size="xs">
                  Older messages
                </OlderButton>
              </Group>
            )}
          </Stack>
        );
      }}
    </QueryState>
  );
}
