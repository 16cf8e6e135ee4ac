import { Textarea, type TextareaProps } from "@mantine/core";

/** A monospace, autosizing text area for inventories, YAML and JSON: no spell check, no wrap. */
export function CodeTextarea(props: TextareaProps) {
  return (
    <Textarea
      autosize
      minRows={6}
      maxRows={24}
      spellCheck={false}
      autoCapitalize="off"
      autoCorrect="off"
      wrap="off"
      styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)", fontSize: 13 } }}
      {...props}
    />
  );
}
