import { Anchor, Group, Paper, Stack, Table, Text } from "@mantine/core";
import {
  type HostProgress,
  type Progress,
  formatFor,
  quietHosts,
  summarize,
  taskPosition,
} from "@/features/runs/lib/progress";
import { useNow } from "@/hooks/use-now";
import { plural } from "@/lib/format";

const SHOWN_HOSTS = 8;

const OUTCOME_COLOR: Record<HostProgress["outcome"], string> = {
  pending: "gray",
  ok: "green",
  changed: "yellow",
  failed: "red",
  unreachable: "grape",
};

function hostState(host: HostProgress, now: number): string {
  if (host.busy) return `on it for ${formatFor(now - host.since)}`;
  if (host.out) return host.outcome === "unreachable" ? "unreachable" : "failed";
  return host.task ? "done, waiting for the others" : "waiting";
}

/** Each host's task now and for how long, its results so far (the Hosts tab while it runs). */
export function LiveHosts({
  progress,
  now,
  limit,
  quietMs,
}: {
  progress: Progress;
  now: number;
  limit?: number;
  quietMs: number;
}) {
  const names = limit === undefined ? progress.order : progress.order.slice(0, limit);
  if (names.length === 0) return <Text c="dimmed">No host has reported yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={300} type="native">
      <Table aria-label="Hosts now" verticalSpacing={2} striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Host</Table.Th>
            <Table.Th>Task</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th ta="right" visibleFrom="sm">
              ok
            </Table.Th>
            <Table.Th ta="right" visibleFrom="sm">
              changed
            </Table.Th>
            <Table.Th ta="right" visibleFrom="sm">
              failed
            </Table.Th>
            <Table.Th ta="right" visibleFrom="sm">
              unreachable
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {names.map((name) => {
            const host = progress.hosts[name];
            if (!host) return null;
            const quiet = host.busy && now - host.heard >= quietMs;
            return (
              <Table.Tr key={name} data-host={name}>
                <Table.Td style={{ whiteSpace: "nowrap" }}>
                  <Text span c={OUTCOME_COLOR[host.outcome]} aria-hidden="true">
                    ●{" "}
                  </Text>
                  <Text span size="sm" fw={500}>
                    {name}
                  </Text>
                </Table.Td>
                <Table.Td style={{ overflowWrap: "break-word" }}>{host.task || "—"}</Table.Td>
                <Table.Td c={quiet ? "orange.8" : host.out ? "red" : undefined}>
                  {quiet ? `quiet for ${formatFor(now - host.heard)}` : hostState(host, now)}
                </Table.Td>
                <Table.Td ta="right" visibleFrom="sm">
                  {host.ok}
                </Table.Td>
                <Table.Td ta="right" visibleFrom="sm">
                  {host.changed}
                </Table.Td>
                <Table.Td ta="right" visibleFrom="sm" c={host.failed ? "red" : "dimmed"}>
                  {host.failed}
                </Table.Td>
                <Table.Td ta="right" visibleFrom="sm" c={host.unreachable ? "grape" : "dimmed"}>
                  {host.unreachable}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

interface RunProgressProps {
  progress: Progress;
  /** hosts on one task longer than this are flagged */
  quietSeconds: number;
  onShowHosts: () => void;
}

/** While the run goes: the play and task it is on, hosts done and by result so far, hosts
 * quiet for too long, and what each host is doing. Counted from the live stream's events. */
export function RunProgress({ progress, quietSeconds, onShowHosts }: RunProgressProps) {
  const now = useNow(1000, !progress.finished);
  const quietMs = quietSeconds * 1000;
  if (progress.playIndex === 0 && progress.order.length === 0) {
    return (
      <Paper withBorder p="xs" role="region" aria-label="Progress">
        <Text size="sm" c="dimmed">
          Waiting for the playbook's first play…
        </Text>
      </Paper>
    );
  }
  const summary = summarize(progress);
  const quiet = quietHosts(progress, now, quietMs);
  const position = taskPosition(progress);
  return (
    <Paper withBorder px="xs" py={6} role="region" aria-label="Progress">
      <Stack gap={4}>
        <Group gap="xs" wrap="wrap">
          <Text size="sm" fw={600} style={{ overflowWrap: "anywhere" }}>
            {progress.play ? `Play “${progress.play}”` : "Play"}
            {position && ` · ${position}`}
            {progress.task && `: ${progress.task}`}
          </Text>
          {progress.taskStartedAt !== null && !progress.finished && (
            <Text size="sm" c="dimmed">
              for {formatFor(now - progress.taskStartedAt)}
            </Text>
          )}
        </Group>
        <Group gap="xs" wrap="wrap">
          <Text size="sm" aria-label="Hosts so far">
            {summary.done} of {plural(summary.hosts, "host")} done
            {progress.taskIndex > 0 && !progress.finished ? " with this task" : ""}
            {" · "}
            <Text span c="green">
              {summary.ok} ok
            </Text>
            {/* the other outcomes once a host has one: a phone keeps the line short */}
            {summary.changed > 0 && (
              <>
                {" · "}
                <Text span c="yellow.8">
                  {summary.changed} changed
                </Text>
              </>
            )}
            {summary.failed > 0 && (
              <>
                {" · "}
                <Text span c="red" fw={700}>
                  {summary.failed} failed
                </Text>
              </>
            )}
            {summary.unreachable > 0 && (
              <>
                {" · "}
                <Text span c="grape" fw={700}>
                  {summary.unreachable} unreachable
                </Text>
              </>
            )}
          </Text>
          <Anchor component="button" type="button" size="xs" onClick={onShowHosts} visibleFrom="sm">
            What each host is doing (Hosts tab)
          </Anchor>
        </Group>
        {quiet.length > 0 && (
          <Text
            size="sm"
            c="orange.8"
            role="status"
            aria-label="Quiet hosts"
            title={`Flagged after ${formatFor(quietMs)} on one task without a sign of life`}
            style={{ overflowWrap: "anywhere" }}
          >
            {quiet
              .slice(0, SHOWN_HOSTS)
              .map((q) => `${q.host} quiet for ${formatFor(q.quietMs)} (on “${q.task}”)`)
              .join(" · ")}
            {quiet.length > SHOWN_HOSTS && ` · and ${quiet.length - SHOWN_HOSTS} more`}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
