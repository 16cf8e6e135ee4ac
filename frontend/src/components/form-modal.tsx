import { Button, Group, Modal, type ModalProps, Stack } from "@mantine/core";
import type { FormEvent, ReactNode } from "react";
import { FormError } from "@/components/form-error";

interface FormModalProps {
  /** false keeps a dialog that stays mounted closed; the create dialogs are, the edit ones aren't */
  opened?: boolean;
  /** the dialog's close button, Escape, the overlay and Cancel */
  onClose: () => void;
  title: ReactNode;
  size?: ModalProps["size"];
  fullScreen?: boolean;
  /** a Mantine form's `form.onSubmit(...)` */
  onSubmit: (event?: FormEvent<HTMLFormElement>) => void;
  /** what of a failed submit belongs to no field (useServerErrors' `message`) */
  error: string | null;
  submitLabel: ReactNode;
  /** the submit button spins while the request is out */
  pending: boolean;
  /** the submit button takes the focus when the dialog opens, rather than the first field */
  autofocusSubmit?: boolean;
  /** the fields, stacked above the form's error and the buttons */
  children: ReactNode;
  /** a dialog opened from this one is above it: Escape closes that one only (Mantine's
   * listener is on the window, so each open dialog hears it) */
  covered?: boolean;
}

/** The dialog of a create or edit form: its fields, its error and Cancel and submit buttons. */
export function FormModal({
  opened = true,
  onClose,
  title,
  size,
  fullScreen,
  onSubmit,
  error,
  submitLabel,
  pending,
  autofocusSubmit = false,
  children,
  covered = false,
}: FormModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size={size}
      fullScreen={fullScreen}
      closeOnEscape={!covered}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {children}
          <FormError message={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={pending} data-autofocus={autofocusSubmit || undefined}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
