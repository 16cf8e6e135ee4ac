import type { TextareaProps } from "@mantine/core";
import { CodeTextarea } from "@/components/code-textarea";
import { EXTRA_VARS_HELP } from "@/lib/extra-vars";

/** Where extra vars are typed (launch, relaunch, template, schedule): YAML, JSON or
 * name=value lines, read by `parseExtraVars` (its error names the line). */
export function ExtraVarsInput(props: TextareaProps) {
  return (
    <CodeTextarea
      label="Extra vars"
      description={EXTRA_VARS_HELP}
      placeholder={"name: value\nother: [1, 2]"}
      minRows={3}
      {...props}
    />
  );
}
