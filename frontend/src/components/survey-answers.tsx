import {
  Checkbox,
  MultiSelect,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  TextInput,
  Textarea,
} from "@mantine/core";
import type { GetInputPropsReturnType } from "@mantine/form";
import type { Schemas } from "@/api/client";

type Question = Schemas["Question"];

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
}

const KEPT_HINT = "Kept from the earlier run (never shown); type to replace it";

function AnswerInput({
  form,
  question,
  prefix,
  kept,
  keptHint,
}: {
  form: Form;
  question: Question;
  prefix: string;
  kept: boolean;
  keptHint: string;
}) {
  const path = `${prefix}.${question.variable}`;
  const common = {
    label: question.label,
    description: question.description || undefined,
    required: question.required,
    ...form.getInputProps(path),
  };
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

/** The survey as a typed form: one input per question, by its type. */
export function SurveyAnswers({
  form,
  questions,
  prefix = "survey",
  kept,
  keptHint = KEPT_HINT,
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
        />
      ))}
    </Stack>
  );
}
