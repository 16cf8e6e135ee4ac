import { Badge, Button, Group, Text } from "@mantine/core";
import type { HostRecap } from "@/features/runs/api/get-run-output";
import { plural } from "@/lib/format";

const SHOWN_FAILED = 6;

type Outcome = "ok" | "changed" | "failed" | "unreachable";

/** A host's outcome, the worst of its results: each host counts once in the summary. */
export function outcome(host: HostRecap): Outcome {
  if (host.unreachable > 0) return "unreachable";
  if (host.failed > 0) return "failed";
  return host.changed > 0 ? "changed" : "ok";
}

interface RunSummaryProps {
  hosts: readonly HostRecap[] | undefined;
  /** the run has failed, or failed tasks showed up: offer the way to the first one */
  failed: boolean;
  onShowHost: (host: string) => void;
  onFirstFailure: () => void;
}

/** The recap in one line, above the tabs: how many hosts did what, the failed ones by name
 * (each opens its output), and the first failure a click away. */
export function RunSummary({ hosts, failed, onShowHost, onFirstFailure }: RunSummaryProps) {
  if (!hosts || hosts.length === 0) return null;
  const outcomes = hosts.map(outcome);
  const total = (key: Outcome) => outcomes.filter((o) => o === key).length;
  const failing = hosts.filter((host) => host.failed + host.unreachable > 0);
  return (
    <Group gap="xs" wrap="wrap" aria-label="Recap" role="group">
      <Text size="sm">
        {plural(hosts.length, "host")}:{" "}
        <Text span c="green">
          {total("ok")} ok
        </Text>
        {" · "}
        <Text span c={total("changed") ? "yellow.8" : "dimmed"}>
          {total("changed")} changed
        </Text>
        {" · "}
        <Text span c={total("failed") ? "red" : "dimmed"} fw={total("failed") ? 700 : undefined}>
          {total("failed")} failed
        </Text>
        {" · "}
        <Text
          span
          c={total("unreachable") ? "red" : "dimmed"}
          fw={total("unreachable") ? 700 : undefined}
        >
          {total("unreachable")} unreachable
        </Text>
      </Text>
      {failing.slice(0, SHOWN_FAILED).map((host) => (
        <Badge
          key={host.host}
          component="button"
          type="button"
          color="red"
          variant="light"
          style={{ cursor: "pointer", textTransform: "none" }}
          onClick={() => onShowHost(host.host)}
          title={`Show the output of ${host.host}`}
        >
          {host.host}
        </Badge>
      ))}
      {failing.length > SHOWN_FAILED && (
        <Text size="xs" c="dimmed">
          and {failing.length - SHOWN_FAILED} more (Hosts tab)
        </Text>
      )}
      {(failed || failing.length > 0) && (
        <Button size="compact-sm" variant="light" color="red" onClick={onFirstFailure}>
          Jump to first failure
        </Button>
      )}
    </Group>
  );
}
