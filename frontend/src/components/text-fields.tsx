import { TextInput, type TextInputProps } from "@mantine/core";
import type { GetInputPropsReturnType } from "@mantine/form";

/** One text field of a form: the form value it holds (`name`) and how it shows. */
export type TextField<K extends string> = { name: K; "data-autofocus"?: boolean } & Omit<
  TextInputProps,
  "name" | "key"
>;

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
  return fields.map(({ name, ...shown }) => (
    <TextInput key={form.key(name)} {...shown} {...form.getInputProps(name)} />
  ));
}
