import { Button, type ButtonProps, Group, Table, VisuallyHidden } from "@mantine/core";
import type { ReactNode } from "react";

interface RowButtonProps {
  /** what the button does to which row, for screen readers ("Revoke ci-token") */
  label: string;
  onClick: () => void;
  /** "red" for what removes or ends something */
  color?: ButtonProps["color"];
  variant?: ButtonProps["variant"];
  children: ReactNode;
}

/** A small button of a table row (subtle unless told otherwise). */
export function RowButton({ label, onClick, color, variant = "subtle", children }: RowButtonProps) {
  return (
    <Button size="compact-sm" variant={variant} color={color} aria-label={label} onClick={onClick}>
      {children}
    </Button>
  );
}

interface RowActionsProps {
  /** the row's name, for the buttons' accessible names ("Edit db-prod") */
  name: string;
  onEdit?: () => void;
  onDelete?: () => void;
  /** the row's own buttons, before edit and delete */
  children?: ReactNode;
}

/** Edit and delete buttons of a table row, after its own; a missing handler hides its button.
 * They wrap rather than push the row past a phone's screen. */
export function RowActions({ name, onEdit, onDelete, children }: RowActionsProps) {
  if (!onEdit && !onDelete && !children) return null;
  return (
    <Group gap={4} justify="flex-end" wrap="wrap">
      {children}
      {onEdit && (
        <RowButton label={`Edit ${name}`} onClick={onEdit}>
          Edit
        </RowButton>
      )}
      {onDelete && (
        <RowButton label={`Delete ${name}`} color="red" onClick={onDelete}>
          Delete
        </RowButton>
      )}
    </Group>
  );
}

/** The header of a table's actions column: named for screen readers, blank on screen. */
export function ActionsHeader() {
  return (
    <Table.Th>
      <VisuallyHidden>Actions</VisuallyHidden>
    </Table.Th>
  );
}
