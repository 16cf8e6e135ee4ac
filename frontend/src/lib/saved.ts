import { notifications } from "@mantine/notifications";

interface Then<T> {
  onClose: () => void;
  /** the form that opened this one (create in place) selects what was made */
  onSaved?: (saved: T) => void;
}

/**
 * The options of a form's save: once saved, say so, hand the record on and close; a refusal goes
 * to the form (`useServerErrors`: its fields, else its message).
 */
export function savedThen<T extends { name: string }>(
  what: string,
  errors: { show: (error: unknown) => void },
  { onClose, onSaved }: Then<T>,
) {
  return {
    onSuccess: (saved: T) => {
      notifications.show({ color: "green", message: `${what} “${saved.name}” saved` });
      onSaved?.(saved);
      onClose();
    },
    onError: (error: unknown) => errors.show(error),
  };
}
