import { Anchor, Code, Collapse, Group, Stack, Table, Text, UnstyledButton } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { type Run, isActive } from "@/features/runs/api/get-run";
import { LaunchedVia } from "@/features/runs/components/launched-via";
import { RunLabel } from "@/features/runs/components/run-label";
import { runDuration } from "@/features/runs/lib/run-facts";
import { runPath } from "@/features/runs/lib/run-path";
import { useNow } from "@/hooks/use-now";
import { formatDateTime } from "@/lib/format";

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text size="sm" component="div">
      <Text span size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>{" "}
      {children}
    </Text>
  );
}

/** Who launched the run, how and from where, when, for how long; the commit; why it ended.
 * One wrapping line of facts, so that the output below starts high on the page. */
export function RunMeta({ run }: { run: Run }) {
  // "running for" counts on the client's clock: a quiet task (a pause) changes nothing else
  const now = useNow(1000, run.started_at !== null && run.finished_at === null);
  const took = runDuration(run, now);
  return (
    <Stack gap={4}>
      <Group gap="lg" wrap="wrap" style={{ rowGap: 4 }}>
        {(run.label || run.note) && <RunLabel run={run} />}
        <Fact label="By">
          {run.launched_by || "—"}{" "}
          <Text span size="xs" c="dimmed">
            via <LaunchedVia run={run} />
            {run.source_ip ? ` from ${run.source_ip}` : ""}
          </Text>
        </Fact>
        <Fact label={run.started_at ? "Started" : "Queued"}>
          {formatDateTime(run.started_at ?? run.created_at)}
        </Fact>
        {took && (
          <Fact label={run.finished_at ? "Took" : "Running for"}>
            <span aria-live={run.finished_at ? undefined : "off"}>{took}</span>
          </Fact>
        )}
        {run.commit_hash && (
          <Fact label="Commit">
            <Code title={run.commit_hash}>{run.commit_hash.slice(0, 12)}</Code>
          </Fact>
        )}
        {run.rc !== null && <Fact label="Exit code">{run.rc}</Fact>}
        {run.relaunch_of_id !== null && (
          <Fact label="Relaunch of">
            <Anchor component={Link} to={runPath(run.project_id, run.relaunch_of_id)}>
              #{run.relaunch_of_id}
            </Anchor>
          </Fact>
        )}
      </Group>
      {run.status === "queued" && run.waiting_reason && (
        <Text size="sm" c="dimmed" aria-label="Why it waits">
          Waiting: {run.waiting_reason}
        </Text>
      )}
      {run.status_reason && !isActive(run.status) && (
        <Text size="sm" c={run.status === "successful" ? "dimmed" : "red"}>
          {run.status_reason}
        </Text>
      )}
    </Stack>
  );
}

function named(name: string | null | undefined, id: number | null | undefined): string {
  if (id === null || id === undefined) return "—";
  if (name) return name;
  return name === "" ? `#${id} (deleted)` : `#${id}`;
}

function vars(values: Record<string, unknown> | undefined): ReactNode {
  if (!values || Object.keys(values).length === 0) return "—";
  return (
    <Code block fz="xs">
      {JSON.stringify(values, null, 2)}
    </Code>
  );
}

/** The run's parameters as launched, by name (secret values come redacted from the server). */
export function RunParams({ run }: { run: Run }) {
  const [raw, rawToggle] = useDisclosure(false);
  const p = run.params;
  const refs = run.refs;
  const vaultIds = p.vault_key_ids ?? [];
  const repository = named(refs?.repository, p.repository_id);
  const commit = run.commit_hash ? ` @ ${run.commit_hash.slice(0, 12)}` : "";
  const ref = p.ref ? ` (ref ${p.ref})` : "";
  const rows: [string, ReactNode][] = [
    ["Playbook", <Code key="playbook">{p.playbook}</Code>],
    ["Repository", `${repository}${ref}${commit}`],
    ["Inventory", named(refs?.inventory, p.inventory_id)],
    ["Environment", named(refs?.environment, p.environment_id)],
    ["SSH key", named(refs?.ssh_key, p.ssh_key_id)],
    ["Become key", named(refs?.become_key, p.become_key_id)],
    [
      "Vault keys",
      vaultIds.length === 0
        ? "—"
        : vaultIds.map((id, i) => named(refs?.vault_keys?.[i], id)).join(", "),
    ],
    ["Limit", p.limit || "all hosts"],
    ...(p.host_scope
      ? [["Host scope", `${p.host_scope.join(", ")} (the launcher's grant)`] as [string, ReactNode]]
      : []),
    [
      "Tags",
      [p.tags && `only ${p.tags}`, p.skip_tags && `skip ${p.skip_tags}`]
        .filter(Boolean)
        .join("; ") || "—",
    ],
    [
      "Mode",
      [
        p.check_mode && "check",
        p.diff_mode && "diff",
        p.verbosity > 0 && `-${"v".repeat(p.verbosity)}`,
      ]
        .filter(Boolean)
        .join(", ") || "normal",
    ],
    ["Forks", p.forks ?? "default"],
    ["Timeout", p.timeout_seconds ? `${p.timeout_seconds} s` : "none"],
    [
      "Requirements",
      p.install_requirements === false ? "not installed" : "installed before the playbook",
    ],
    ["Ansible", p.ansible_venv ? <Code key="venv">{p.ansible_venv}</Code> : "the server's own"],
    ["Template vars", vars(p.extra_vars)],
    ["Launch vars", vars({ ...p.launch_vars, ...p.secret_extra_vars })],
  ];
  return (
    <Stack gap="xs">
      <Table
        aria-label="Run parameters"
        verticalSpacing={4}
        fz="sm"
        variant="vertical"
        withTableBorder
      >
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={140} scope="row">
                {label}
              </Table.Th>
              <Table.Td style={{ wordBreak: "break-word" }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <UnstyledButton onClick={rawToggle.toggle} aria-expanded={raw} fz="xs" c="dimmed">
        {raw ? "Hide" : "Show"} the parameters as stored (JSON)
      </UnstyledButton>
      <Collapse in={raw}>
        <Code block>{JSON.stringify(p, null, 2)}</Code>
      </Collapse>
    </Stack>
  );
}
