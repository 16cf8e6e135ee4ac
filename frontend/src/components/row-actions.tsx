import { Button, Group, Table, VisuallyHidden } from "@mantine/core";

interface RowActionsProps {
  /** the row's name, for the buttons' accessible names ("Edit db-prod") */
  name: string;
  onEdit?: () => void;
  onDelete?: () => void;
}

/** Edit and delete buttons of a table row; a missing handler hides its button. They wrap
 * rather than push the row past a phone's screen. */
export function RowActions({ name, onEdit, onDelete }: RowActionsProps) {
  if (!onEdit && !onDelete) return null;
  return (
    <Group gap={4} justify="flex-end" wrap="wrap">
      {onEdit && (
        <Button size="compact-sm" variant="subtle" aria-label={`Edit ${name}`} onClick={onEdit}>
          Edit
        </Button>
      )}
      {onDelete && (
        <Button
          size="compact-sm"
          variant="subtle"
          color="red"
          aria-label={`Delete ${name}`}
          onClick={onDelete}
        >
          Delete
        </Button>
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
