import type { Schemas } from "@/api/client";
import { valuesOf } from "@/api/enums";
import { ApiError, type FieldError, isApiError } from "@/api/errors";
import { type LaunchFormValues, toRunCreate, toSavedLaunchValues } from "@/lib/launch-form";

type Template = Schemas["TemplateRead"];
type Launch = Schemas["LaunchOverrides"];

/** How the server shows a stored secret answer, and how it is told to keep it. */
export const MASK = "********";

/** The overrides a template may allow (the API's `OverridableField`), each compared with the
 * template's own value: all but its extra vars (compared apart) and the ref (it has none). */
const OVERRIDES = valuesOf<Exclude<Schemas["OverridableField"], "extra_vars" | "ref">>({
  limit: true,
  tags: true,
  skip_tags: true,
  check_mode: true,
  diff_mode: true,
  verbosity: true,
  forks: true,
  timeout_seconds: true,
  inventory_id: true,
});

/** What the launch dialog edits; any other saved value (`ref`) is kept as it is. */
const EDITED = new Set<string>([...OVERRIDES, "extra_vars", "survey"]);

/** The template's password questions a node has an answer for (stored, read back as MASK). */
export function keptSecretsOf(template: Template, launch: Launch | null): string[] {
  const survey = launch?.survey ?? {};
  return template.survey
    .filter((q) => q.type === "password" && survey[q.variable] === MASK)
    .map((q) => q.variable);
}

/** The dialog's values of a node: its saved launch values over the template's. */
export function toNodeLaunchValues(template: Template, launch: Launch | null): LaunchFormValues {
  return toSavedLaunchValues(template, launch ?? {}, keptSecretsOf(template, launch));
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => String(item) === String(b[i]));
  }
  return a === b;
}

/**
 * A node's launch values from the dialog: what the launch body of the template would be
 * (`toRunCreate`: only the overrides it allows, blank answers left out), without what equals
 * the template's own value or the question's default, so those follow the template when it
 * changes. A kept secret left blank is sent as MASK (the server keeps it). Null: nothing set.
 */
export function toNodeLaunch(
  template: Template,
  values: LaunchFormValues,
  extraVars: Record<string, unknown>,
  saved: Launch | null,
): Launch | null {
  const { survey, ...rest } = toRunCreate(template, values, extraVars);
  const body: Record<string, unknown> = Object.fromEntries(
    Object.entries(rest).filter(([field, value]) => {
      if (field === "template_id" || field === "launch_type") return false;
      const own = (OVERRIDES as readonly string[]).includes(field)
        ? (template[field as (typeof OVERRIDES)[number]] ?? undefined)
        : Symbol();
      return value !== own;
    }),
  );
  const answers: Record<string, unknown> = Object.fromEntries(
    template.survey
      .filter((q) => {
        const answer = survey?.[q.variable];
        return answer !== undefined && !same(answer, q.default);
      })
      .map((q) => [q.variable, survey?.[q.variable]]),
  );
  for (const variable of keptSecretsOf(template, saved)) {
    if (!(variable in answers)) answers[variable] = MASK;
  }
  if (Object.keys(answers).length > 0) body.survey = answers;
  const kept = Object.entries(saved ?? {}).filter(
    ([field, value]) => !EDITED.has(field) && value !== null && value !== undefined,
  );
  const launch = { ...Object.fromEntries(kept), ...body } as Launch;
  return Object.keys(launch).length > 0 ? launch : null;
}

/** `nodes.<key>.…` (a launch's errors name the node by key) as `nodes.<index>.…` (the form's). */
export function indexNodeErrors(error: unknown, keys: readonly string[]): unknown {
  if (!isApiError(error)) return error;
  const fieldErrors = error.fieldErrors.map((e) => {
    const match = /^nodes\.([^.]+)(\..*)?$/.exec(e.field);
    if (!match || /^\d+$/.test(match[1] ?? "")) return e;
    const index = keys.indexOf(match[1] ?? "");
    return index < 0 ? e : { ...e, field: `nodes.${index}${match[2] ?? ""}` };
  });
  return new ApiError(error.status, error.title, error.detail, fieldErrors);
}

/** A failed save's errors about node launch values, by node index, each field relative to
 * the launch body (`limit`, `survey.release`): where the node's launch dialog shows them. */
export function nodeLaunchErrors(error: unknown): Map<number, FieldError[]> {
  const found = new Map<number, FieldError[]>();
  if (!isApiError(error)) return found;
  for (const e of error.fieldErrors) {
    const match = /^nodes\.(\d+)\.launch(?:\.(.+))?$/.exec(e.field.replace(/\[(\d+)\]/g, ".$1"));
    if (!match) continue;
    const index = Number(match[1]);
    found.set(index, [...(found.get(index) ?? []), { field: match[2] ?? "", message: e.message }]);
  }
  return found;
}

/** What a node's launch values set, in words: `limit web1`, `survey: release, db_password`. */
export function describeLaunch(launch: Launch | null): string[] {
  if (!launch) return [];
  const said: string[] = [];
  for (const [field, value] of Object.entries(launch)) {
    if (value === null || value === undefined) continue;
    if (field === "survey" || field === "extra_vars") {
      const names = Object.keys(value as object);
      if (names.length > 0)
        said.push(`${field === "survey" ? "answers" : "extra vars"}: ${names.join(", ")}`);
    } else {
      said.push(`${field.replace("_", " ")} ${String(value)}`);
    }
  }
  return said;
}
