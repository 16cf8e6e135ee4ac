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
