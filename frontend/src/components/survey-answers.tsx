import {
  Checkbox,
  MultiSelect,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  TagsInput,
  TextInput,
  Textarea,
} from "@mantine/core";
import type { GetInputPropsReturnType } from "@mantine/form";
import type { ReactNode } from "react";
import type { Schemas } from "@/api/client";
import type { SourcedOptions } from "@/lib/survey-options";

type Question = Schemas["Question"];

const SOURCE_NAMES = { inventory: "the inventory", url: "a URL", script: "a script" } as const;

/** The part of a Mantine form the answers are read from and written to. */
interface Form {
  getInputProps(path: string, options?: { type?: "input" | "checkbox" }): GetInputPropsReturnType;
}

const bound = (value: number | null | undefined) => (value == null ? undefined : value);

interface SurveyAnswersProps {
  form: Form;
  questions: Question[];
  /** where the answers are in the form's values: `survey` (a launch), `launch.survey` (a schedule) */
  prefix?: string;
  /** password questions whose earlier answer is kept unless a new one is typed (a relaunch) */
  kept?: readonly string[];
  /** what a kept answer's input says under it */
  keptHint?: string;
  /** sourced questions' options now (useSourcedOptions); without them such a question is
   * typed, and checked against its options at launch */
  sourced?: Record<string, SourcedOptions>;
}

const KEPT_HINT = "Kept from the earlier run (never shown); type to replace it";

function AnswerInput({
  form,
  question,
  prefix,
  kept,
  keptHint,
  sourced,
}: {
  form: Form;
  question: Question;
  prefix: string;
  kept: boolean;
  keptHint: string;
  sourced?: SourcedOptions;
}) {
  const path = `${prefix}.${question.variable}`;
  const common = {
    label: question.label,
    description: question.description || undefined,
    required: question.required,
    ...form.getInputProps(path),
  };
  if (question.source)
    return <SourcedInput common={common} question={question} sourced={sourced} />;
  const min = bound(question.min);
  const max = bound(question.max);
  switch (question.type) {
    case "textarea":
      return <Textarea autosize minRows={3} maxLength={max} {...common} />;
    case "password":
      return kept ? (
        <PasswordInput
          autoComplete="new-password"
          maxLength={max}
          {...common}
          required={false}
          placeholder="(kept)"
          description={keptHint}
        />
      ) : (
        <PasswordInput autoComplete="new-password" maxLength={max} {...common} />
      );
    case "integer":
    case "float":
      return (
        <NumberInput
          allowDecimal={question.type === "float"}
          min={min}
          max={max}
          clampBehavior="none"
          {...common}
        />
      );
    case "choice":
      return <Select data={question.choices ?? []} clearable={!question.required} {...common} />;
    case "multi_choice":
      return <MultiSelect data={question.choices ?? []} {...common} />;
    case "boolean":
      return (
        <Checkbox
          {...common}
          {...form.getInputProps(path, { type: "checkbox" })}
          required={undefined}
        />
      );
    default:
      return <TextInput maxLength={max} {...common} />;
  }
}

function SourcedInput({
  common,
  question,
  sourced,
}: {
  common: GetInputPropsReturnType & { label: string };
  question: Question;
  sourced?: SourcedOptions;
}) {
  const from = question.source ? SOURCE_NAMES[question.source.kind] : "";
  const multi = question.type === "multi_choice";
  if (!sourced) {
    const description = `Options from ${from}: checked when the run is launched`;
    return multi ? (
      <TagsInput {...common} description={description} />
    ) : (
      <TextInput {...common} description={description} />
    );
  }
  const description = sourced.pending
    ? `Reading the options from ${from}…`
    : `Options from ${from}`;
  const error = sourced.error ? `No options: ${sourced.error}` : (common.error as ReactNode);
  return multi ? (
    <MultiSelect {...common} data={sourced.choices} description={description} error={error} />
  ) : (
    <Select
      {...common}
      data={sourced.choices}
      clearable={!question.required}
      searchable
      description={description}
      error={error}
    />
  );
}

/** The survey as a typed form: one input per question, by its type. */
export function SurveyAnswers({
  form,
  questions,
  prefix = "survey",
  kept,
  keptHint = KEPT_HINT,
  sourced,
}: SurveyAnswersProps) {
  return (
    <Stack gap="sm">
      {questions.map((question) => (
        <AnswerInput
          key={question.variable}
          form={form}
          question={question}
          prefix={prefix}
          kept={kept?.includes(question.variable) ?? false}
          keptHint={keptHint}
          sourced={sourced?.[question.variable]}
        />
      ))}
    </Stack>
  );
}
