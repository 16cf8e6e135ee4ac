import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { FormError } from "@/components/form-error";

interface ConfirmDeleteModalProps {
  opened: boolean;
  onClose: () => void;
  /** what is deleted, as the user knows it: "project “db-prod”" */
  subject: string;
  /** what else goes with it, if anything */
  consequence?: string;
  onConfirm: () => Promise<unknown>;
}

export function ConfirmDeleteModal(props: ConfirmDeleteModalProps) {
  const { opened, onClose, subject, consequence, onConfirm } = props;
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
    <Modal opened={opened} onClose={close} title={`Delete ${subject}?`} centered>
      <Stack>
        <Text size="sm">{consequence ?? "This cannot be undone."}</Text>
        <FormError message={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={pending}>
            Cancel
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={pending} data-autofocus>
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
