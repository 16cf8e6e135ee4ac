import { Badge, Card, Code, Stack, Table, Text, Title } from "@mantine/core";
import { QueryState } from "@/components/query-state";
import { useAuditStream } from "@/features/audit/api/get-stream";
import { formatAge, streamHealth } from "@/features/audit/lib/stream-health";
import { formatDateTime } from "@/lib/format";

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
              <Table.ScrollContainer minWidth={700}>
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Sink</Table.Th>
                      <Table.Th>Target</Table.Th>
                      <Table.Th>State</Table.Th>
                      <Table.Th>Waiting</Table.Th>
                      <Table.Th>Oldest</Table.Th>
                      <Table.Th>Last success</Table.Th>
                      <Table.Th>Last error</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {status.sinks.map((sink) => {
                      const health = streamHealth(sink);
                      return (
                        <Table.Tr key={sink.sink}>
                          <Table.Td>{sink.kind || sink.sink}</Table.Td>
                          <Table.Td>
                            <Code>{sink.target || "—"}</Code>
                          </Table.Td>
                          <Table.Td>
                            <Badge color={health.color} variant="light">
                              {health.label}
                            </Badge>
                          </Table.Td>
                          <Table.Td>{sink.backlog.toLocaleString()}</Table.Td>
                          <Table.Td>{formatAge(sink.oldest_pending_seconds)}</Table.Td>
                          <Table.Td>
                            {sink.last_success_at ? formatDateTime(sink.last_success_at) : "—"}
                          </Table.Td>
                          <Table.Td>
                            {sink.last_error ? (
                              <Text size="sm" c={sink.failures > 0 ? "red" : "dimmed"}>
                                {sink.last_error_at
                                  ? `${formatDateTime(sink.last_error_at)}: `
                                  : ""}
                                {sink.last_error}
                              </Text>
                            ) : (
                              "—"
                            )}
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )
          }
        </QueryState>
      </Stack>
    </Card>
  );
}
