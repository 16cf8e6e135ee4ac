import { Group, Stack, Title } from "@mantine/core";
import type { ReactNode } from "react";

interface RecordHeaderProps {
  /** the record's name */
  title: ReactNode;
  /** beside the name: its kind, whether it is on */
  badges: ReactNode;
  /** below the name: what it is, what it targets */
  children: ReactNode;
  /** on the right (wrapping below on a phone): the buttons the caller may use */
  actions?: ReactNode;
}

/** The head of one record's view (a schedule, a webhook, a destination): its name and badges,
 * a few lines about it, and its buttons. */
export function RecordHeader({ title, badges, children, actions }: RecordHeaderProps) {
  return (
    <Group justify="space-between" align="flex-start" wrap="wrap">
      <Stack gap={2}>
        <Group gap="sm">
          <Title order={3}>{title}</Title>
          {badges}
        </Group>
        {children}
      </Stack>
      {actions}
    </Group>
  );
}
