import { Alert, List, Text } from "@mantine/core";
import { useRunPreflight } from "@/features/runs/api/get-run-preflight";
import { plural } from "@/lib/format";

/** Hosts the pre-flight (the template's setting) found failing before ansible-playbook
 * started: left out of the run (skip_unreachable) or only recorded (check), each with why. */
export function PreflightHosts({
  projectId,
  runId,
  status,
}: {
  projectId: number;
  runId: number;
  status: string;
}) {
  const preflight = useRunPreflight(projectId, runId, status);
  const hosts = preflight.data ?? [];
  if (hosts.length === 0) return null;
  const skipped = hosts.filter((h) => h.skipped).length;
  return (
    <Alert
      color="orange"
      variant="light"
      title={
        skipped
          ? `Pre-flight: ${plural(skipped, "host")} skipped, unreachable`
          : `Pre-flight: ${plural(hosts.length, "host")} unreachable (not skipped)`
      }
    >
      <List size="sm" spacing={2} aria-label="Hosts the pre-flight found unreachable">
        {hosts.map((host) => (
          <List.Item key={host.host}>
            <Text span size="sm" ff="monospace" style={{ overflowWrap: "anywhere" }}>
              {host.host}
            </Text>
            <Text span size="sm">
              {host.skipped ? " (skipped)" : ""}: {host.reason || host.status}
            </Text>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
