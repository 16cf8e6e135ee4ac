import { Button } from "@mantine/core";
import { useState } from "react";
import { ConfirmModal } from "@/components/confirm-modal";

interface ConfirmDeleteModalProps {
  opened: boolean;
  onClose: () => void;
  /** what is deleted, as the user knows it: "project “db-prod”" */
  subject: string;
  /** what else goes with it, if anything */
  consequence?: string;
  onConfirm: () => Promise<unknown>;
}

export function ConfirmDeleteModal({ subject, consequence, ...rest }: ConfirmDeleteModalProps) {
  return (
    <ConfirmModal
      title={`Delete ${subject}?`}
      message={consequence ?? "This cannot be undone."}
      confirmLabel="Delete"
      {...rest}
    />
  );
}

/** A record's Delete button, and the confirmation it asks first. */
export function DeleteButton(props: Omit<ConfirmDeleteModalProps, "opened" | "onClose">) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Button variant="subtle" color="red" onClick={() => setAsking(true)}>
        Delete
      </Button>
      <ConfirmDeleteModal opened={asking} onClose={() => setAsking(false)} {...props} />
    </>
  );
}
