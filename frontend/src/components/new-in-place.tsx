import { Anchor, Group, Text } from "@mantine/core";
import type { ReactNode } from "react";

interface FieldHelpProps {
  /** what the field takes, or nothing */
  text?: ReactNode;
  /** the link's label ("New repository"); none: no link */
  newLabel?: string;
  onNew: () => void;
}

/**
 * A field's description with a "New …" link that opens, in place, the create dialog of what the
 * field picks from: the form underneath keeps what was typed in it.
 */
export function FieldHelp({ text, newLabel, onNew }: FieldHelpProps) {
  if (!newLabel) return text;
  return (
    <Group component="span" gap={6} wrap="wrap">
      {text && (
        <Text span inherit>
          {text}
        </Text>
      )}
      <Anchor component="button" type="button" size="xs" onClick={onNew}>
        {newLabel}
      </Anchor>
    </Group>
  );
}
