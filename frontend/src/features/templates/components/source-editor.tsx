import { Group, NumberInput, Select, Stack, TagsInput, TextInput } from "@mantine/core";
import type { UseFormReturnType } from "@mantine/form";
import type { TemplateFormValues } from "@/features/templates/lib/template-form";
import {
  type OptionSource,
  SOURCE_KINDS,
  type SourceKind,
  newSource,
} from "@/features/templates/lib/survey-form";

type Form = UseFormReturnType<TemplateFormValues>;

const SELECTS = [
  { value: "hosts", label: "Hosts matching" },
  { value: "groups", label: "Groups matching" },
  { value: "variable", label: "Values of a host variable" },
];
const ANSWER_HINT = "{answer.<variable>} puts in an earlier answer (as data)";

/** Where a choice question's options come from: its own list, or a source the server reads
 * when the launch dialog opens (and again at launch). */
export function SourceEditor({
  form,
  index,
  source,
  keys,
}: {
  form: Form;
  index: number;
  source: OptionSource | null;
  keys: { value: string; label: string }[];
}) {
  const path = `survey.${index}.source`;
  const field = (name: string) => form.getInputProps(`${path}.${name}`);
  const timeout = (
    <NumberInput
      label="Timeout (s)"
      min={0.5}
      max={30}
      decimalScale={1}
      w={120}
      {...field("timeout_seconds")}
    />
  );
  return (
    <Stack gap="xs">
      <Select
        label="Options"
        data={SOURCE_KINDS}
        allowDeselect={false}
        value={source?.kind ?? "list"}
        error={form.errors[path]}
        onChange={(value) =>
          form.setFieldValue(
            path,
            !value || value === "list" ? null : newSource(value as SourceKind),
          )
        }
      />
      {source?.kind === "inventory" && (
        <Group grow align="flex-start" wrap="wrap">
          <Select
            label="Give"
            data={SELECTS}
            allowDeselect={false}
            miw={160}
            {...field("select")}
          />
          <TextInput
            label="Host pattern"
            description={ANSWER_HINT}
            ff="monospace"
            miw={160}
            {...field("pattern")}
          />
          {source.select === "variable" && (
            <TextInput label="Host variable" ff="monospace" miw={140} {...field("variable")} />
          )}
        </Group>
      )}
      {source?.kind === "url" && (
        <>
          <TextInput
            label="URL (GET, answering JSON)"
            description={ANSWER_HINT}
            ff="monospace"
            required
            {...field("url")}
          />
          <Group grow align="flex-start" wrap="wrap">
            <TextInput
              label="JSON path to the list"
              placeholder="data.items[*].name"
              ff="monospace"
              miw={160}
              {...field("path")}
            />
            <Select
              label="Credential"
              description="Sent as Authorization"
              data={keys}
              clearable
              placeholder="None"
              miw={160}
              {...field("key_id")}
              value={source.key_id == null ? null : String(source.key_id)}
              onChange={(value) =>
                form.setFieldValue(`${path}.key_id`, value === null ? null : Number(value))
              }
            />
            {timeout}
          </Group>
        </>
      )}
      {source?.kind === "script" && (
        <Group grow align="flex-start" wrap="wrap">
          <TextInput
            label="Script in the repository"
            description="Prints one option per line, or a JSON list"
            ff="monospace"
            required
            miw={160}
            {...field("path")}
          />
          <TagsInput
            label="Arguments"
            description={ANSWER_HINT}
            miw={160}
            {...field("arguments")}
          />
          {timeout}
        </Group>
      )}
    </Stack>
  );
}
