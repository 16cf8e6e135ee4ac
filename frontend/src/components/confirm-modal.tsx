import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { FormError } from "@/components/form-error";

interface ConfirmModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** what happens, in a sentence */
  message: string;
  confirmLabel: string;
  color?: string;
  onConfirm: () => Promise<unknown>;
}

/** Asks before an action that cannot be taken back (revoke, disable, sign out); the
 * server's refusal shows in the dialog. */
export function ConfirmModal(props: ConfirmModalProps) {
  const { opened, onClose, title, message, confirmLabel, color = "red", onConfirm } = props;
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setError(null);
    onClose();
  };
  const confirm = async () => {
    setPending(true);
    setError(null);
    try {
      await onConfirm();
      close();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <Stack>
        <Text size="sm">{message}</Text>
        <FormError message={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={pending}>
            Cancel
          </Button>
          <Button color={color} onClick={() => void confirm()} loading={pending} data-autofocus>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
