import type { Schemas } from "@/api/client";
import type { Question } from "@/features/templates/lib/survey-form";

type Template = Schemas["TemplateRead"];
type RunCreate = Schemas["RunCreate"];

export type Answer = string | number | boolean | string[];

/** Names as in the launch body, so errors (`limit`, `survey.db_name`) find their inputs. */
export interface LaunchFormValues {
  limit: string;
  tags: string;
  skip_tags: string;
  check_mode: boolean;
  diff_mode: boolean;
  verbosity: string;
  forks: number | "";
  timeout_seconds: number | "";
  extra_vars: string;
  inventory_id: string;
  survey: Record<string, Answer>;
}

/** The empty answer of a question with no default: the input's own empty value. */
function initialAnswer(question: Question): Answer {
  const value = question.default;
  switch (question.type) {
    case "boolean":
      return typeof value === "boolean" ? value : false;
    case "multi_choice":
      return Array.isArray(value) ? value.map(String) : [];
    case "integer":
    case "float":
      return typeof value === "number" ? value : "";
    default:
      return value == null ? "" : String(value);
  }
}

export function toLaunchValues(template: Template): LaunchFormValues {
  return {
    limit: template.limit,
    tags: template.tags,
    skip_tags: template.skip_tags,
    check_mode: template.check_mode,
    diff_mode: template.diff_mode,
    verbosity: String(template.verbosity),
    forks: template.forks ?? "",
    timeout_seconds: template.timeout_seconds ?? "",
    extra_vars: "",
    inventory_id: String(template.inventory_id),
    survey: Object.fromEntries(template.survey.map((q) => [q.variable, initialAnswer(q)])),
  };
}

/**
 * The launch body: only the overrides the template allows (the server refuses the others),
 * and the survey's answers, blank ones left out so that the server applies the defaults.
 */
export function toRunCreate(
  template: Template,
  v: LaunchFormValues,
  extraVars: Record<string, unknown>,
): RunCreate {
  const allowed = new Set(template.overridable);
  const body: RunCreate = { template_id: template.id, launch_type: "ui" };
  if (allowed.has("limit")) body.limit = v.limit;
  if (allowed.has("tags")) body.tags = v.tags;
  if (allowed.has("skip_tags")) body.skip_tags = v.skip_tags;
  if (allowed.has("check_mode")) body.check_mode = v.check_mode;
  if (allowed.has("diff_mode")) body.diff_mode = v.diff_mode;
  if (allowed.has("verbosity")) body.verbosity = Number(v.verbosity);
  if (allowed.has("forks") && v.forks !== "") body.forks = v.forks;
  if (allowed.has("timeout_seconds") && v.timeout_seconds !== "") {
    body.timeout_seconds = v.timeout_seconds;
  }
  if (allowed.has("extra_vars") && Object.keys(extraVars).length > 0) body.extra_vars = extraVars;
  if (allowed.has("inventory_id") && v.inventory_id !== "")
    body.inventory_id = Number(v.inventory_id);
  const answers: Record<string, Answer> = {};
  for (const question of template.survey) {
    const answer = v.survey[question.variable];
    if (answer === undefined || answer === "" || (Array.isArray(answer) && answer.length === 0)) {
      continue;
    }
    answers[question.variable] = answer;
  }
  body.survey = answers;
  return body;
}
