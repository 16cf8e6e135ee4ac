import type { Schemas } from "@/api/client";
import { type Answer, answerOf } from "@/lib/launch-form";
import { extraVarsText, parseExtraVars } from "@/lib/extra-vars";
import { type Checked, type TargetValues, toTargetValues, withTarget } from "@/lib/trigger-target";
import { browserZone, utcToZonedWall, zonedWallToUtc } from "@/features/schedules/lib/zones";

type Schedule = Schemas["ScheduleRead"];
type ScheduleCreate = Schemas["ScheduleCreate"];
type ScheduleTargetCreate = Schemas["ScheduleTargetCreate"];
type Template = Schemas["TemplateRead"];
type Question = Schemas["Question"];

export const KINDS: { value: Schemas["ScheduleKind"]; label: string }[] = [
  { value: "cron", label: "Cron" },
  { value: "rrule", label: "Recurrence (RRULE)" },
];

export const MISSED_POLICIES: { value: Schemas["MissedPolicy"]; label: string }[] = [
  { value: "run_once", label: "Run the latest missed occurrence once" },
  { value: "skip", label: "Skip missed occurrences" },
];

/** Examples shown under the expression, by kind: what people set up first. */
export const EXAMPLES: Record<Schemas["ScheduleKind"], string> = {
  cron: "0 2 * * 1-5 (02:00 on weekdays), 30 6 1 * * (06:30 on the 1st), @daily",
  rrule: "FREQ=WEEKLY;BYDAY=MO,WE,FR;BYHOUR=2;BYMINUTE=0 or FREQ=MONTHLY;BYDAY=-1SU;BYHOUR=4",
};

/**
 * Form fields are named like the body's, so the server's errors (`expression`, `end_at`,
 * `launch.survey.db`, `launch.extra_vars`) land on their inputs. Start and end are wall times
 * of the schedule's zone ("2026-03-01T00:00"), the value of a datetime-local input.
 */
export interface ScheduleFormValues extends TargetValues {
  name: string;
  description: string;
  kind: Schemas["ScheduleKind"];
  expression: string;
  timezone: string;
  start_at: string;
  end_at: string;
  enabled: boolean;
  missed_policy: Schemas["MissedPolicy"];
  /** each occurrence launches a plan of the template (check + diff): drift found by itself */
  plan: boolean;
  launch: { limit: string; extra_vars: string; survey: Record<string, Answer> };
}

/** The answers of `survey` to `questions`: stored ones kept, the others at their default. */
export function surveyValues(
  questions: readonly Question[],
  stored: Record<string, unknown> | undefined,
): Record<string, Answer> {
  return Object.fromEntries(
    questions.map((q) => [
      q.variable,
      answerOf(q, stored && q.variable in stored ? stored[q.variable] : q.default),
    ]),
  );
}

export function toScheduleValues(
  schedule: Schedule | null,
  template: Template | null,
  zone = browserZone(),
): ScheduleFormValues {
  const timezone = schedule?.timezone ?? zone;
  const launch = schedule?.launch;
  return {
    ...toTargetValues(schedule, template?.id ?? null),
    name: schedule?.name ?? "",
    description: schedule?.description ?? "",
    kind: schedule?.kind ?? "cron",
    expression: schedule?.expression ?? "",
    timezone,
    start_at: schedule?.start_at ? utcToZonedWall(schedule.start_at, timezone) : "",
    end_at: schedule?.end_at ? utcToZonedWall(schedule.end_at, timezone) : "",
    enabled: schedule?.enabled ?? true,
    missed_policy: schedule?.missed_policy ?? "run_once",
    plan: schedule?.plan ?? false,
    launch: {
      limit: launch?.limit ?? "",
      extra_vars: extraVarsText(launch?.extra_vars),
      survey: surveyValues(template?.survey ?? [], launch?.survey),
    },
  };
}

const blank = (answer: Answer | undefined) =>
  answer === undefined || answer === "" || (Array.isArray(answer) && answer.length === 0);

/**
 * The body to save: the whole schedule as the form shows it (the expression exactly as typed,
 * so nothing of it is lost on an edit), start and end as UTC instants of the wall times in the
 * schedule's zone, and the launch values the template allows; blank answers left out so that
 * the server applies the survey's defaults.
 */
export function toScheduleBody(
  v: ScheduleFormValues,
  template: Template | null,
): Checked<ScheduleCreate> {
  const errors: Record<string, string> = {};
  const instant = (field: "start_at" | "end_at") => {
    if (!v[field]) return null;
    const utc = zonedWallToUtc(v[field], v.timezone);
    if (utc === null) errors[field] = `is not a date and time in ${v.timezone}`;
    return utc;
  };
  const start_at = instant("start_at");
  const end_at = instant("end_at");
  const allowed = new Set(template?.overridable ?? []);
  const launch: Schemas["LaunchOverrides"] = {};
  if (allowed.has("limit") && v.launch.limit.trim()) launch.limit = v.launch.limit.trim();
  if (allowed.has("extra_vars")) {
    const vars = parseExtraVars(v.launch.extra_vars);
    if (typeof vars === "string") errors["launch.extra_vars"] = vars;
    else if (Object.keys(vars).length > 0) launch.extra_vars = vars;
  }
  const survey: Record<string, Answer> = {};
  for (const question of template?.survey ?? []) {
    const answer = v.launch.survey[question.variable];
    if (answer !== undefined && !blank(answer)) survey[question.variable] = answer;
  }
  launch.survey = survey;
  if (Object.keys(errors).length > 0) return { errors };
  return {
    body: {
      name: v.name,
      description: v.description,
      kind: v.kind,
      expression: v.expression.trim(),
      timezone: v.timezone,
      start_at,
      end_at,
      enabled: v.enabled,
      missed_policy: v.missed_policy,
      // a workflow's schedule runs no plans (the server refuses it)
      plan: v.target_kind === "workflow" ? false : v.plan,
      // a workflow's nodes carry their own launch values: its schedule sends none
      ...(v.target_kind === "workflow" ? {} : { launch }),
    },
  };
}

/** The body of a new schedule: `toScheduleBody` and its one target. */
export function toNewScheduleBody(
  v: ScheduleFormValues,
  template: Template | null,
): Checked<ScheduleTargetCreate> {
  return withTarget(v, toScheduleBody(v, v.target_kind === "workflow" ? null : template));
}

/**
 * The recurrence as typed, for the server's live preview (the same checks as a save); null
 * while there is nothing to preview yet (no expression, or a date that is not one).
 */
export function toDraftPreview(
  v: ScheduleFormValues,
  viewerTz: string,
  count = 5,
): Schemas["DraftPreview"] | null {
  if (!v.expression.trim()) return null;
  const checked = toScheduleBody(v, null);
  if (!("body" in checked)) return null;
  const { kind, expression, timezone, start_at, end_at } = checked.body;
  return { kind, expression, timezone, start_at, end_at, count, viewer_tz: viewerTz };
}
