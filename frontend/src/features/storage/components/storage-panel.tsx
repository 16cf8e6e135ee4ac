import { Alert, Paper, Progress, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import type { Schemas } from "@/api/client";
import { Fact } from "@/components/fact";
import { QueryState } from "@/components/query-state";
import { useStorage } from "@/features/storage/api/get-storage";
import {
  formatBytes,
  formatPeriod,
  storageWarnings,
  thresholdShare,
} from "@/features/storage/lib/storage";
import { formatDateTime } from "@/lib/format";

/** The database: its size against the warning threshold, the biggest tables, the retention
 * periods in force and what the last prune removed and freed. */
export function StoragePanel() {
  const query = useStorage();
  return (
    <QueryState query={query} loading="Loading the storage figures" failed="Could not measure">
      {(storage) => <StorageView storage={storage} />}
    </QueryState>
  );
}

/** The figures, once measured. */
export function StorageView({ storage }: { storage: Schemas["StorageRead"] }) {
  const share = thresholdShare(storage);
  return (
    <Stack>
      {storageWarnings(storage).map((warning) => (
        <Alert key={warning.title} color="orange" title={warning.title} role="alert">
          {warning.text}
        </Alert>
      ))}
      <Paper withBorder p="md" radius="md" aria-label="Database size">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Fact label={`Database (${storage.database === "sqlite" ? "SQLite" : "PostgreSQL"})`}>
            <Text fw={700} size="xl" component="span">
              {formatBytes(storage.size_bytes)}
            </Text>
          </Fact>
          <Fact label="Free inside">
            {storage.free_bytes === null
              ? "— (PostgreSQL reuses the space of removed rows)"
              : formatBytes(storage.free_bytes)}
          </Fact>
          <Fact label="Warning threshold">
            {storage.warning_bytes === null
              ? "none (STEWARD_DATABASE_SIZE_WARNING_MB)"
              : `${formatBytes(storage.warning_bytes)}${share === null ? "" : ` — ${share.toFixed(0)} % used`}`}
          </Fact>
        </SimpleGrid>
        {share !== null && (
          <Progress
            mt="sm"
            value={Math.min(share, 100)}
            color={storage.over_warning ? "red" : share > 80 ? "orange" : "blue"}
            aria-label="Size against the warning threshold"
          />
        )}
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="md" radius="md">
          <Title order={4} mb="xs">
            Biggest tables
          </Title>
          {storage.tables === null ? (
            <Text c="dimmed" size="sm">
              This SQLite has no dbstat table: it cannot say.
            </Text>
          ) : (
            <Table aria-label="Biggest tables">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Table</Table.Th>
                  <Table.Th ta="right">Size, with indexes</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {storage.tables.map((table) => (
                  <Table.Tr key={table.name}>
                    <Table.Td>{table.name}</Table.Td>
                    <Table.Td ta="right">{formatBytes(table.bytes)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Paper>
        <Stack>
          <Paper withBorder p="md" radius="md">
            <Title order={4} mb="xs">
              Retention in force
            </Title>
            <SimpleGrid cols={2} spacing="xs">
              <Fact label="Finished runs">{formatPeriod(storage.retention.runs_days)}</Fact>
              <Fact label="Webhook deliveries">
                {formatPeriod(storage.retention.webhook_deliveries_days)}
              </Fact>
              <Fact label="Notification messages">
                {formatPeriod(storage.retention.notification_messages_days)}
              </Fact>
              <Fact label="Audit trail (steward audit prune)">
                {formatPeriod(storage.retention.audit_days)}
              </Fact>
            </SimpleGrid>
            <Text c="dimmed" size="xs" mt="xs">
              Each server applies them every {storage.retention.tick_seconds.toLocaleString()} s;
              `steward prune` does it now.
            </Text>
          </Paper>
          <Paper withBorder p="md" radius="md" aria-label="Last prune">
            <Title order={4} mb="xs">
              Last prune
            </Title>
            {storage.last_prune === null ? (
              <Text c="dimmed" size="sm">
                Nothing has been pruned yet.
              </Text>
            ) : (
              <Stack gap="xs">
                <SimpleGrid cols={2} spacing="xs">
                  <Fact label="When">{formatDateTime(storage.last_prune.at)}</Fact>
                  <Fact label="Freed">
                    {storage.last_prune.bytes_freed === null
                      ? "not measured"
                      : formatBytes(storage.last_prune.bytes_freed)}
                  </Fact>
                </SimpleGrid>
                <Text size="sm">{storage.last_prune.detail}</Text>
              </Stack>
            )}
          </Paper>
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}
