import { PasswordInput, TextInput, type TextInputProps } from "@mantine/core";
import type { GetInputPropsReturnType } from "@mantine/form";

/** One text field of a form: the form value it holds (`name`) and how it shows; `password`:
 * hidden as typed, with a button that shows it. */
export type TextField<K extends string> = {
  name: K;
  password?: boolean;
  "data-autofocus"?: boolean;
} & Omit<TextInputProps, "name" | "key" | "vars" | "classNames" | "styles">;

/** A form (uncontrolled) that holds the fields' values. */
interface FieldsForm<K extends string> {
  key: (path: K) => string;
  getInputProps: (path: K) => GetInputPropsReturnType;
}

/** A form's text fields, in the order given (a table of fields rather than one input a
 * field written out again and again). */
export function TextFields<K extends string>({
  form,
  fields,
}: {
  form: FieldsForm<K>;
  fields: readonly TextField<K>[];
}) {
  return fields.map(({ name, password = false, ...shown }) => {
    const Input = password ? PasswordInput : TextInput;
    return <Input key={form.key(name)} {...shown} {...form.getInputProps(name)} />;
  });
}
