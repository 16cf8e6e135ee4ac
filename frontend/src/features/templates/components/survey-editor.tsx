import {
  ActionIcon,
  Checkbox,
  Group,
  Input,
  MultiSelect,
  NumberInput,
  Paper,
  Select,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from "@mantine/core";
import type { UseFormReturnType } from "@mantine/form";
import type { TemplateFormValues } from "@/features/templates/lib/template-form";
import {
  QUESTION_TYPES,
  type QuestionType,
  type QuestionValues,
  hasBounds,
  hasChoices,
  isNumber,
  newQuestion,
  withType,
} from "@/features/templates/lib/survey-form";
import { AddRowButton } from "@/components/list-rows";
import { SourceEditor } from "@/features/templates/components/source-editor";

type Form = UseFormReturnType<TemplateFormValues>;
/** a password or secret key of the project, for a URL source's credential */
type KeyOption = { value: string; label: string };

function DefaultInput({ form, index, q }: { form: Form; index: number; q: QuestionValues }) {
  const path = `survey.${index}.default`;
  const props = form.getInputProps(path);
  const label = "Default";
  if (q.source && q.type === "multi_choice")
    return (
      <TagsInput
        label={label}
        description="Checked against the options at launch"
        value={Array.isArray(q.default) ? q.default : []}
        error={props.error}
        onChange={(value) => form.setFieldValue(path, value)}
      />
    );
  if (q.source)
    return (
      <TextInput
        label={label}
        description="Checked against the options at launch"
        value={typeof q.default === "string" ? q.default : ""}
        error={props.error}
        onChange={(event) => form.setFieldValue(path, event.currentTarget.value || null)}
      />
    );
  switch (q.type) {
    case "password":
      return (
        <Text size="xs" c="dimmed">
          A password question has no default: it would be stored in clear.
        </Text>
      );
    case "boolean":
      return (
        <Select
          label={label}
          data={[
            { value: "true", label: "Yes" },
            { value: "false", label: "No" },
          ]}
          placeholder="No default"
          clearable
          value={q.default === null ? null : String(q.default)}
          error={props.error}
          onChange={(value) => form.setFieldValue(path, value === null ? null : value === "true")}
        />
      );
    case "integer":
    case "float":
      return (
        <NumberInput
          label={label}
          allowDecimal={q.type === "float"}
          value={typeof q.default === "number" ? q.default : ""}
          error={props.error}
          onChange={(value) => form.setFieldValue(path, typeof value === "number" ? value : null)}
        />
      );
    case "choice":
      return (
        <Select
          label={label}
          data={q.choices}
          placeholder="No default"
          clearable
          value={typeof q.default === "string" ? q.default : null}
          error={props.error}
          onChange={(value) => form.setFieldValue(path, value)}
        />
      );
    case "multi_choice":
      return (
        <MultiSelect
          label={label}
          data={q.choices}
          placeholder="No default"
          value={Array.isArray(q.default) ? q.default : []}
          error={props.error}
          onChange={(value) => form.setFieldValue(path, value)}
        />
      );
    default:
      return (
        <TextInput
          label={label}
          value={typeof q.default === "string" ? q.default : ""}
          error={props.error}
          onChange={(event) => form.setFieldValue(path, event.currentTarget.value)}
        />
      );
  }
}

function QuestionEditor({
  form,
  index,
  count,
  keys,
}: {
  form: Form;
  index: number;
  count: number;
  keys: KeyOption[];
}) {
  const q = form.values.survey[index];
  if (!q) return null;
  const n = index + 1;
  const bound = (which: "min" | "max") => (
    <NumberInput
      label={
        isNumber(q.type)
          ? `${which === "min" ? "Minimum" : "Maximum"}`
          : `${which === "min" ? "Min" : "Max"} length`
      }
      allowDecimal={q.type === "float"}
      allowNegative={isNumber(q.type)}
      w={140}
      {...form.getInputProps(`survey.${index}.${which}`)}
    />
  );
  return (
    <Paper
      withBorder
      p="sm"
      component="fieldset"
      aria-label={`Question ${n}`}
      style={{ margin: 0 }}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={500} size="sm">
            Question {n}
            {q.variable && (
              <Text span c="dimmed" ff="monospace" size="sm">
                {" "}
                {q.variable}
              </Text>
            )}
          </Text>
          <Group gap={4} wrap="nowrap">
            <ActionIcon
              variant="subtle"
              aria-label={`Move question ${n} up`}
              disabled={index === 0}
              onClick={() => form.reorderListItem("survey", { from: index, to: index - 1 })}
            >
              ↑
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              aria-label={`Move question ${n} down`}
              disabled={index === count - 1}
              onClick={() => form.reorderListItem("survey", { from: index, to: index + 1 })}
            >
              ↓
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Remove question ${n}`}
              onClick={() => form.removeListItem("survey", index)}
            >
              ×
            </ActionIcon>
          </Group>
        </Group>
        <Group grow align="flex-start" wrap="wrap">
          <TextInput
            label="Variable"
            required
            ff="monospace"
            spellCheck={false}
            miw={160}
            {...form.getInputProps(`survey.${index}.variable`)}
          />
          <TextInput
            label="Label"
            required
            miw={160}
            {...form.getInputProps(`survey.${index}.label`)}
          />
          <Select
            label="Type"
            data={QUESTION_TYPES}
            allowDeselect={false}
            miw={160}
            {...form.getInputProps(`survey.${index}.type`)}
            onChange={(value) =>
              value && form.setFieldValue(`survey.${index}`, withType(q, value as QuestionType))
            }
          />
        </Group>
        <TextInput label="Description" {...form.getInputProps(`survey.${index}.description`)} />
        {hasChoices(q.type) && (
          <SourceEditor form={form} index={index} source={q.source} keys={keys} />
        )}
        {hasChoices(q.type) && !q.source && (
          <TagsInput
            label="Choices"
            description="Type a choice and press Enter"
            required
            {...form.getInputProps(`survey.${index}.choices`)}
          />
        )}
        <Group align="flex-end" wrap="wrap">
          {hasBounds(q.type) && (
            <>
              {bound("min")}
              {bound("max")}
            </>
          )}
          <div style={{ flex: "1 1 180px" }}>
            <DefaultInput form={form} index={index} q={q} />
          </div>
          <Checkbox
            label="Required"
            mb={8}
            {...form.getInputProps(`survey.${index}.required`, { type: "checkbox" })}
          />
        </Group>
      </Stack>
    </Paper>
  );
}

/** Add, remove, reorder and edit the questions a launch asks. */
export function SurveyEditor({ form, keys = [] }: { form: Form; keys?: KeyOption[] }) {
  const count = form.values.survey.length;
  return (
    <Stack gap="sm">
      {count === 0 && (
        <Text size="sm" c="dimmed">
          No questions: a launch asks nothing.
        </Text>
      )}
      {form.values.survey.map((question, index) => (
        <QuestionEditor key={question.id} form={form} index={index} count={count} keys={keys} />
      ))}
      <Input.Error>{form.errors.survey}</Input.Error>
      <AddRowButton onClick={() => form.insertListItem("survey", newQuestion())}>
        Add question
      </AddRowButton>
    </Stack>
  );
}
