import type { Schemas } from "@/api/client";

export type Question = Schemas["Question"];
export type QuestionType = Schemas["QuestionType"];
/** Where a choice question's options come from, instead of its own list. */
export type OptionSource = NonNullable<Question["source"]>;
export type SourceKind = OptionSource["kind"];

export const SOURCE_KINDS: { value: SourceKind | "list"; label: string }[] = [
  { value: "list", label: "Listed here" },
  { value: "inventory", label: "From the inventory" },
  { value: "url", label: "From a URL" },
  { value: "script", label: "From a script of the repository" },
];

/** A new source of `kind`, with the server's defaults. */
export function newSource(kind: SourceKind): OptionSource {
  if (kind === "inventory") return { kind, pattern: "all", select: "hosts", variable: null };
  if (kind === "url") return { kind, url: "", key_id: null, path: "", timeout_seconds: 5 };
  return { kind, path: "", arguments: [], timeout_seconds: 5 };
}

export const QUESTION_TYPES: { value: QuestionType; label: string }[] = [
  { value: "text", label: "Text" },
  { value: "textarea", label: "Text, several lines" },
  { value: "password", label: "Password (secret)" },
  { value: "integer", label: "Integer" },
  { value: "float", label: "Number" },
  { value: "choice", label: "Choice" },
  { value: "multi_choice", label: "Several choices" },
  { value: "boolean", label: "Yes / no" },
];

export const hasBounds = (type: QuestionType) =>
  type === "text" ||
  type === "textarea" ||
  type === "password" ||
  type === "integer" ||
  type === "float";
export const hasChoices = (type: QuestionType) => type === "choice" || type === "multi_choice";
export const isNumber = (type: QuestionType) => type === "integer" || type === "float";

/** A survey question as the editor holds it; `default` is typed by the question's type. */
export interface QuestionValues {
  id: string;
  variable: string;
  label: string;
  description: string;
  type: QuestionType;
  required: boolean;
  min: number | "";
  max: number | "";
  choices: string[];
  /** where the options come from (then `choices` is empty) */
  source: OptionSource | null;
  default: string | number | boolean | string[] | null;
}

let questions = 0;
export function newQuestion(): QuestionValues {
  questions += 1;
  return {
    id: `question-${questions}`,
    variable: "",
    label: "",
    description: "",
    type: "text",
    required: false,
    min: "",
    max: "",
    choices: [],
    source: null,
    default: null,
  };
}

function typedDefault(type: QuestionType, value: unknown): QuestionValues["default"] {
  if (value === null || value === undefined || type === "password") return null;
  if (type === "multi_choice") return Array.isArray(value) ? value.map(String) : null;
  if (type === "boolean") return typeof value === "boolean" ? value : null;
  if (isNumber(type)) return typeof value === "number" ? value : null;
  return String(value);
}

export function toQuestionValues(question: Question): QuestionValues {
  return {
    ...newQuestion(),
    variable: question.variable,
    label: question.label,
    description: question.description,
    type: question.type,
    required: question.required,
    min: question.min ?? "",
    max: question.max ?? "",
    choices: question.choices ?? [],
    source: question.source ?? null,
    default: typedDefault(question.type, question.default),
  };
}

/** The question as the API takes it: only the fields its type has, empty ones left out. */
export function toQuestion(v: QuestionValues): Question {
  const question: Question = {
    variable: v.variable,
    label: v.label,
    description: v.description,
    type: v.type,
    required: v.required,
  };
  if (hasBounds(v.type)) {
    if (v.min !== "") question.min = v.min;
    if (v.max !== "") question.max = v.max;
  }
  if (hasChoices(v.type) && v.source) question.source = v.source;
  else if (hasChoices(v.type)) question.choices = v.choices;
  const blank =
    v.default === null || v.default === "" || (Array.isArray(v.default) && v.default.length === 0);
  if (!blank && v.type !== "password") question.default = v.default;
  return question;
}

/** A new type keeps what still fits it: bounds between text types, choices between choice types. */
export function withType(v: QuestionValues, type: QuestionType): QuestionValues {
  return {
    ...v,
    type,
    min: hasBounds(type) && isNumber(type) === isNumber(v.type) ? v.min : "",
    max: hasBounds(type) && isNumber(type) === isNumber(v.type) ? v.max : "",
    choices: hasChoices(type) ? v.choices : [],
    source: hasChoices(type) ? v.source : null,
    default: null,
  };
}
