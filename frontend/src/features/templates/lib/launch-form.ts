import type { Schemas } from "@/api/client";
import {
  type Answer,
  type LaunchFormValues,
  toRunCreate,
  toSavedLaunchValues,
} from "@/lib/launch-form";

type Template = Schemas["TemplateRead"];
type RunCreate = Schemas["RunCreate"];

export type RelaunchValues = Schemas["RelaunchValues"];
export type RelaunchRequest = Schemas["RelaunchRequest"];
export type RelaunchHosts = "all" | "failed";

/** The relaunch dialog's values: the template's, then the earlier run's launch values (a
 * kept secret answer shows blank: typing one replaces it). */
export function toRelaunchValues(template: Template, earlier: RelaunchValues): LaunchFormValues {
  return toSavedLaunchValues(template, earlier.launch, earlier.kept_secrets);
}

/**
 * The relaunch body: the allowed overrides as shown (extra vars too when emptied, to clear
 * them), every answer (a blank one: the question's default) but a kept secret left blank,
 * which the server keeps; with `failed`, the server sets the limit.
 */
export function toRelaunchBody(
  template: Template,
  v: LaunchFormValues,
  extraVars: Record<string, unknown>,
  hosts: RelaunchHosts,
  keptSecrets: readonly string[],
): RelaunchRequest {
  const launch: Partial<RunCreate> = toRunCreate(template, v, extraVars);
  delete launch.template_id;
  delete launch.launch_type;
  const body: RelaunchRequest = { ...launch, hosts };
  if (hosts === "failed") delete body.limit;
  if (template.overridable.includes("extra_vars")) body.extra_vars = extraVars;
  const answers: Record<string, Answer> = { ...launch.survey } as Record<string, Answer>;
  for (const question of template.survey) {
    const variable = question.variable;
    if (variable in answers) continue;
    if (question.type === "password" && keptSecrets.includes(variable)) continue;
    answers[variable] = question.type === "multi_choice" ? [] : "";
  }
  body.survey = answers;
  return body;
}
