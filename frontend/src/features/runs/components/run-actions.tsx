import { Button, Group, Menu, Modal, Text } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { useNavigate } from "react-router";
import { type Run, isActive } from "@/features/runs/api/get-run";
import { outputUrl } from "@/features/runs/api/get-run-output";
import type { RunPermissions } from "@/features/runs/api/get-run-permissions";
import { useCancelRun, useRelaunchRun } from "@/features/runs/api/run-actions";
import { runPath } from "@/features/runs/lib/run-path";

function failure(title: string, error: Error) {
  notifications.show({ color: "red", title, message: error.message });
}

interface RunActionsProps {
  run: Run;
  permissions: RunPermissions;
  hasFailedHosts: boolean;
}

/** Cancel, relaunch (all or failed hosts), download; hidden when the caller may not. */
export function RunActions({ run, permissions, hasFailedHosts }: RunActionsProps) {
  const navigate = useNavigate();
  const cancel = useCancelRun(run.project_id, run.id);
  const relaunch = useRelaunchRun(run.project_id, run.id);
  const [confirming, confirm] = useDisclosure(false);
  const active = isActive(run.status);

  const doRelaunch = (hosts: "all" | "failed") =>
    relaunch.mutate(hosts, {
      onSuccess: (next) => void navigate(runPath(next.project_id, next.id)),
      onError: (error) => failure("Could not relaunch", error),
    });

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
      {!active && permissions.relaunch !== false && run.template_id !== null && (
        <Menu position="bottom-end">
          <Menu.Target>
            <Button variant="light" loading={relaunch.isPending}>
              Relaunch
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => doRelaunch("all")}>All hosts</Menu.Item>
            <Menu.Item onClick={() => doRelaunch("failed")} disabled={!hasFailedHosts}>
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
