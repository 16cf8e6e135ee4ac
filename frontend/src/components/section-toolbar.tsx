import { Button, Group, Text } from "@mantine/core";
import type { ReactNode } from "react";

interface SectionToolbarProps {
  description: ReactNode;
  /** the "New …" button's label; no label (no right to create) hides the button */
  actionLabel?: string;
  onAction?: () => void;
}

export function SectionToolbar({ description, actionLabel, onAction }: SectionToolbarProps) {
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Text size="sm" c="dimmed" maw={640}>
        {description}
      </Text>
      {actionLabel && onAction && <Button onClick={onAction}>{actionLabel}</Button>}
    </Group>
  );
}
