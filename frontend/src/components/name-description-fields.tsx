import { TextInput, Textarea } from "@mantine/core";
import type { GetInputPropsReturnType } from "@mantine/form";

type Field = "name" | "description";

/** A form (uncontrolled) that holds a record's name and description. */
interface NamedForm {
  key: (path: Field) => string;
  getInputProps: (path: Field) => GetInputPropsReturnType;
}

interface NameDescriptionFieldsProps {
  form: NamedForm;
  /** a line (a key's), or a few (a project's, a team's) */
  lines?: "one" | "several";
}

/** A record's name (required, focused first) and its description. */
export function NameDescriptionFields({ form, lines = "several" }: NameDescriptionFieldsProps) {
  const description = form.getInputProps("description");
  const key = form.key("description");
  return (
    <>
      <TextInput
        label="Name"
        required
        data-autofocus
        key={form.key("name")}
        {...form.getInputProps("name")}
      />
      {lines === "one" ? (
        <TextInput label="Description" key={key} {...description} />
      ) : (
        <Textarea label="Description" autosize minRows={2} maxRows={8} key={key} {...description} />
      )}
    </>
  );
}
