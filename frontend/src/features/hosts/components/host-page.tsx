import { Group, Stack, Text, Title } from "@mantine/core";
import { QueryState } from "@/components/query-state";
import { useHost } from "@/features/hosts/api/get-hosts";
import { HostChanges } from "@/features/hosts/components/host-changes";
import { HostFacts } from "@/features/hosts/components/host-facts";
import { HostHealth } from "@/features/hosts/components/host-health";
import { HostInventories } from "@/features/hosts/components/host-inventories";
import { HostMetrics } from "@/features/hosts/components/host-metrics";
import { HostRuns } from "@/features/hosts/components/host-runs";
import { OutcomeBadge } from "@/features/hosts/components/outcome-badge";
import { formatDateTime, plural } from "@/lib/format";

/** A host's page: where the inventories list it, the runs that reached it (who, how, how it
 * went there), the tasks that changed it over time, its health and its metrics per run. */
export function HostPage({ projectId, host }: { projectId: number; host: string }) {
  const read = useHost(projectId, host);
  return (
    <QueryState query={read} loading="Loading the host" notFound="Host not found">
      {(detail) => (
        <Stack gap="lg">
          <div>
            <Title order={2} ff="monospace" style={{ overflowWrap: "anywhere" }}>
              {detail.name}
            </Title>
            <Group gap="xs" mt={4} wrap="wrap">
              {detail.last_run_id !== null && <OutcomeBadge outcome={detail.last_outcome} />}
              <Text size="sm" c="dimmed">
                {detail.runs
                  ? `${plural(detail.runs, "run")} reached it` +
                    (detail.first_seen_at ? ` since ${formatDateTime(detail.first_seen_at)}` : "")
                  : "No run has reached it yet"}
              </Text>
            </Group>
          </div>
          <HostInventories host={detail} />
          <HostHealth projectId={projectId} host={detail.name} />
          <HostMetrics projectId={projectId} host={detail.name} />
          <Stack gap="xs">
            <Title order={3}>Runs</Title>
            <HostRuns projectId={projectId} host={detail.name} />
          </Stack>
          <Stack gap="xs">
            <Title order={3}>Changes</Title>
            <HostChanges projectId={projectId} host={detail.name} />
          </Stack>
          <HostFacts projectId={projectId} host={detail.name} />
        </Stack>
      )}
    </QueryState>
  );
}
