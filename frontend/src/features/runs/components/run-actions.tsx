import { Button, Group, Menu, Modal, Text } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { useNavigate } from "react-router";
import { type Run, isActive } from "@/features/runs/api/get-run";
import { outputUrl } from "@/features/runs/api/get-run-output";
import type { RunPermissions } from "@/features/runs/api/get-run-permissions";
import { useCancelRun, useRelaunchAdhoc } from "@/features/runs/api/run-actions";
import { runPath } from "@/features/runs/lib/run-path";
import type { ReactNode } from "react";

function failure(title: string, error: Error) {
  notifications.show({ color: "red", title, message: error.message });
}

export type RelaunchHosts = "all" | "failed";

/** The relaunch dialog of `run`, opened on `hosts`. */
export type RenderRelaunch = (props: {
  run: Run;
  hosts: RelaunchHosts;
  onClose: () => void;
  onRelaunched: (next: Run) => void;
}) => ReactNode;

interface RunActionsProps {
  run: Run;
  permissions: RunPermissions;
  hasFailedHosts: boolean;
  /** without it, no Relaunch */
  renderRelaunch?: RenderRelaunch;
  /** an ad-hoc command the caller may run again (adhoc:run): relaunched as it was, no dialog */
  adhocRelaunch?: boolean;
}

/** Cancel, relaunch (all or failed hosts), download; hidden when the caller may not. */
export function RunActions({
  run,
  permissions,
  hasFailedHosts,
  renderRelaunch,
  adhocRelaunch = false,
}: RunActionsProps) {
  const navigate = useNavigate();
  const cancel = useCancelRun(run.project_id, run.id);
  const again = useRelaunchAdhoc(run.project_id, run.id);
  const relaunchAdhoc = (hosts: RelaunchHosts) =>
    again.mutate(hosts, {
      onSuccess: (next) => void navigate(runPath(next.project_id, next.id)),
      onError: (error) => failure("Relaunch refused", error),
    });
  const [confirming, confirm] = useDisclosure(false);
  const [relaunching, setRelaunching] = useState<RelaunchHosts | null>(null);
  const active = isActive(run.status);

  return (
    <Group gap="xs">
      {active && permissions.cancel !== false && (
        <Button
          color="red"
          variant="light"
          onClick={confirm.open}
          loading={cancel.isPending}
          disabled={run.cancel_requested_at !== null}
        >
          {run.cancel_requested_at ? "Canceling…" : "Cancel run"}
        </Button>
      )}
      {renderRelaunch && !active && permissions.relaunch !== false && run.template_id !== null && (
        <Menu position="bottom-end">
          <Menu.Target>
            <Button variant="light">Relaunch</Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => setRelaunching("all")}>All hosts…</Menu.Item>
            <Menu.Item onClick={() => setRelaunching("failed")} disabled={!hasFailedHosts}>
              Failed hosts only…
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
      {adhocRelaunch && !active && run.kind === "adhoc" && (
        <Menu position="bottom-end">
          <Menu.Target>
            <Button variant="light" loading={again.isPending}>
              Relaunch
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => relaunchAdhoc("all")}>All hosts</Menu.Item>
            <Menu.Item onClick={() => relaunchAdhoc("failed")} disabled={!hasFailedHosts}>
              Failed hosts only
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
      <Menu position="bottom-end">
        <Menu.Target>
          <Button variant="default">Download</Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item component="a" href={outputUrl(run.project_id, run.id, false)} download>
            Plain text
          </Menu.Item>
          <Menu.Item component="a" href={outputUrl(run.project_id, run.id, true)} download>
            With ANSI colours
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {renderRelaunch &&
        relaunching !== null &&
        renderRelaunch({
          run,
          hosts: relaunching,
          onClose: () => setRelaunching(null),
          onRelaunched: (next) => {
            setRelaunching(null);
            void navigate(runPath(next.project_id, next.id));
          },
        })}
      <Modal opened={confirming} onClose={confirm.close} title={`Cancel run #${run.id}?`}>
        <Text size="sm">
          ansible-playbook is stopped; tasks already running on hosts may be left half done.
        </Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={confirm.close}>
            Keep running
          </Button>
          <Button
            color="red"
            onClick={() => {
              confirm.close();
              cancel.mutate(undefined, { onError: (error) => failure("Could not cancel", error) });
            }}
          >
            Cancel run
          </Button>
        </Group>
      </Modal>
    </Group>
  );
}
