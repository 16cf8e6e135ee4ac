import { ActionIcon, Button, Group } from "@mantine/core";
import type { ReactNode } from "react";

/** The × that removes one row of an editable list (a header, a variable, a condition). */
export function RemoveRowButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <ActionIcon variant="subtle" color="red" size="lg" aria-label={label} onClick={onClick}>
      ×
    </ActionIcon>
  );
}

/** The button under an editable list that adds a row to it. */
export function AddRowButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Group>
      <Button variant="light" size="xs" onClick={onClick}>
        {children}
      </Button>
    </Group>
  );
}
