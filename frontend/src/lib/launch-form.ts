/** The values of a template launch dialog (a launch, a relaunch, a workflow node's launch
 * values) and the launch body they make. */
import type { Schemas } from "@/api/client";
import { extraVarsText } from "@/lib/extra-vars";

type Template = Schemas["TemplateRead"];
type Question = Schemas["Question"];
type RunCreate = Schemas["RunCreate"];

/** Verbosity levels as the pickers show them. */
export const VERBOSITY = ["0", "1", "2", "3", "4"].map((value) => ({
  value,
  label: value === "0" ? "0 (normal)" : `${value} (-${"v".repeat(Number(value))})`,
}));

export type Answer = string | number | boolean | string[];

/** A run's options as a form holds them: a template's, and a launch's overrides of them. */
export interface RunOptionValues {
  limit: string;
  tags: string;
  skip_tags: string;
  check_mode: boolean;
  diff_mode: boolean;
  verbosity: string;
  forks: number | "";
  timeout_seconds: number | "";
}

/** Names as in the launch body, so errors (`limit`, `survey.db_name`) find their inputs. */
export interface LaunchFormValues extends RunOptionValues {
  extra_vars: string;
  inventory_id: string;
  /** the repository's branch, tag or commit to run; "": the repository's own */
  ref: string;
  survey: Record<string, Answer>;
}

/** `value` as the input of `question` holds it; no value: the input's own empty value. */
export function answerOf(question: Question, value: unknown): Answer {
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
    ref: "",
    survey: Object.fromEntries(template.survey.map((q) => [q.variable, answerOf(q, q.default)])),
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
  if (allowed.has("ref") && v.ref.trim() !== "") body.ref = v.ref.trim();
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

/**
 * The launch dialog's values with saved launch values over the template's (a relaunch's
 * earlier run, a workflow node's): a kept secret answer shows blank, and typing one replaces it.
 */
export function toSavedLaunchValues(
  template: Template,
  launch: Schemas["LaunchOverrides"],
  keptSecrets: readonly string[],
): LaunchFormValues {
  const values = toLaunchValues(template);
  const kept = new Set(keptSecrets);
  const survey = { ...values.survey };
  for (const [variable, answer] of Object.entries(launch.survey ?? {})) {
    if (kept.has(variable) || !(variable in survey)) continue;
    if (Array.isArray(answer)) survey[variable] = answer.map(String);
    else if (typeof answer === "number" || typeof answer === "boolean") survey[variable] = answer;
    else survey[variable] = answer == null ? "" : String(answer);
  }
  for (const variable of kept) survey[variable] = "";
  return {
    ...values,
    limit: launch.limit ?? values.limit,
    tags: launch.tags ?? values.tags,
    skip_tags: launch.skip_tags ?? values.skip_tags,
    check_mode: launch.check_mode ?? values.check_mode,
    diff_mode: launch.diff_mode ?? values.diff_mode,
    verbosity: launch.verbosity == null ? values.verbosity : String(launch.verbosity),
    forks: launch.forks ?? values.forks,
    timeout_seconds: launch.timeout_seconds ?? values.timeout_seconds,
    extra_vars: extraVarsText(launch.extra_vars),
    inventory_id: launch.inventory_id == null ? values.inventory_id : String(launch.inventory_id),
    ref: launch.ref ?? values.ref,
    survey,
  };
}
