import { Badge, Card, Code, Stack, Text, Title } from "@mantine/core";
import { type Column, ColumnsTable } from "@/components/columns-table";
import { QueryState } from "@/components/query-state";
import { type StreamSink, useAuditStream } from "@/features/audit/api/get-stream";
import { formatAge, streamHealth } from "@/features/audit/lib/stream-health";
import { formatDateTime } from "@/lib/format";

const SINK_COLUMNS: readonly Column<StreamSink>[] = [
  { key: "sink", header: "Sink", cell: (sink) => sink.kind || sink.sink },
  { key: "target", header: "Target", cell: (sink) => <Code>{sink.target || "—"}</Code> },
  {
    key: "state",
    header: "State",
    cell: (sink) => {
      const health = streamHealth(sink);
      return (
        <Badge color={health.color} variant="light">
          {health.label}
        </Badge>
      );
    },
  },
  { key: "waiting", header: "Waiting", cell: (sink) => sink.backlog.toLocaleString() },
  { key: "oldest", header: "Oldest", cell: (sink) => formatAge(sink.oldest_pending_seconds) },
  {
    key: "success",
    header: "Last success",
    cell: (sink) => (sink.last_success_at ? formatDateTime(sink.last_success_at) : "—"),
  },
  {
    key: "error",
    header: "Last error",
    cell: (sink) =>
      sink.last_error ? (
        <Text size="sm" c={sink.failures > 0 ? "red" : "dimmed"}>
          {sink.last_error_at ? `${formatDateTime(sink.last_error_at)}: ` : ""}
          {sink.last_error}
        </Text>
      ) : (
        "—"
      ),
  },
];

/** Where the audit trail is streamed (syslog, Elastic, Splunk, JSON) and how each sink fares. */
export function StreamStatus() {
  const query = useAuditStream();
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Title order={4}>SIEM stream</Title>
        <QueryState
          query={query}
          loading="Loading the audit stream"
          failed="Could not load the audit stream"
          small
        >
          {(status) =>
            status.sinks.length === 0 ? (
              <Text size="sm" c="dimmed">
                Not streamed to a SIEM. Set <Code>STEWARD_AUDIT_SYSLOG_HOST</Code> or{" "}
                <Code>STEWARD_AUDIT_HTTP_URL</Code> (docs/deploy.md).
              </Text>
            ) : (
              <ColumnsTable
                label="Audit sinks"
                columns={SINK_COLUMNS}
                rows={status.sinks}
                rowKey={(sink) => sink.sink}
                minWidth={700}
              />
            )
          }
        </QueryState>
      </Stack>
    </Card>
  );
}
