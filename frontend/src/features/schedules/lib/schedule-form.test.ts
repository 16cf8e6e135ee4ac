import { useForm } from "@mantine/form";
import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import {
  type ScheduleFormValues,
  toDraftPreview,
  toNewScheduleBody,
  toScheduleBody,
  toScheduleValues,
} from "@/features/schedules/lib/schedule-form";
import { makeSchedule, makeTemplate } from "@/features/schedules/testing/make-schedule";
import { applyServerErrors } from "@/lib/form-errors";

const template = makeTemplate();

function body(values: ScheduleFormValues, t = template) {
  const checked = toScheduleBody(values, t);
  if ("errors" in checked) throw new Error(JSON.stringify(checked.errors));
  return checked.body;
}

describe("schedule form", () => {
  it("starts a new schedule in the viewer's zone with the survey's defaults", () => {
    const values = toScheduleValues(null, template, "America/New_York");
    expect(values.timezone).toBe("America/New_York");
    expect(values.kind).toBe("cron");
    expect(values.template_id).toBe("3");
    expect(values.launch.survey).toEqual({ db: "", token: "", days: 7 });
  });

  it("saves an edited schedule with its expression, weekdays and all, as it was", () => {
    const schedule = makeSchedule();
    const values = toScheduleValues(schedule, template, "UTC");
    // start shown as the wall time of the schedule's zone (01:00 Berlin = 00:00 UTC in March)
    expect(values.start_at).toBe("2026-03-01T01:00");
    expect(values.launch.survey).toEqual({ db: "ORCL", token: "********", days: 7 });
    const sent = body({ ...values, name: "nightly-renamed" });
    expect(sent).toEqual({
      name: "nightly-renamed",
      description: "",
      kind: "cron",
      expression: "30 2 * * 1,3,5",
      timezone: "Europe/Berlin",
      start_at: "2026-03-01T00:00:00.000Z",
      end_at: null,
      enabled: true,
      missed_policy: "skip",
      plan: false,
      // the password answer goes back masked: the server keeps the stored one
      launch: { limit: "db1", survey: { db: "ORCL", token: "********", days: 7 } },
    });
  });

  it("sends a schedule of plans, never for a workflow", () => {
    const values = { ...toScheduleValues(makeSchedule(), template, "UTC"), plan: true };
    expect(body(values).plan).toBe(true);
    expect(body({ ...values, target_kind: "workflow" }).plan).toBe(false);
  });

  it("reads start and end in the schedule's zone, not the browser's", () => {
    const values = toScheduleValues(null, template, "UTC");
    const sent = body({
      ...values,
      timezone: "Asia/Kolkata",
      start_at: "2026-07-01T09:00",
      end_at: "2026-12-31T23:30",
    });
    expect(sent.start_at).toBe("2026-07-01T03:30:00.000Z");
    expect(sent.end_at).toBe("2026-12-31T18:00:00.000Z");
  });

  it("sends only the overrides the template allows, and extra vars as a JSON object", () => {
    const values = toScheduleValues(null, template, "UTC");
    values.launch = {
      limit: " db2 ",
      extra_vars: '{"retention": 7}',
      survey: { db: "X", days: "" },
    };
    expect(body(values).launch).toEqual({
      limit: "db2",
      extra_vars: { retention: 7 },
      survey: { db: "X" },
    });
    const locked = makeTemplate({ overridable: [] });
    expect(body(values, locked).launch).toEqual({ survey: { db: "X" } });
  });

  it("names the field of what it cannot send", () => {
    const values = toScheduleValues(null, template, "UTC");
    values.launch.extra_vars = "retention: [7";
    values.start_at = "tomorrow";
    const checked = toScheduleBody(values, template);
    expect("errors" in checked && checked.errors).toEqual({
      start_at: "is not a date and time in UTC",
      "launch.extra_vars":
        "line 1: not valid YAML (unexpected end of the stream within a flow collection)",
    });
  });

  it("puts the server's errors on the expression, the survey answer and the extra vars", () => {
    const form = renderHook(() =>
      useForm<ScheduleFormValues>({ initialValues: toScheduleValues(null, template, "UTC") }),
    ).result;
    const error = new ApiError(422, "Invalid input", "", [
      { field: "expression", message: "'0 2 * *' is not a valid cron expression" },
      { field: "launch.survey.db", message: "is required" },
      { field: "launch.extra_vars.x", message: "too long" },
    ]);
    let rest: string | null = "unset";
    act(() => {
      rest = applyServerErrors(form.current, error);
    });
    expect(rest).toBeNull();
    expect(form.current.errors).toEqual({
      expression: "'0 2 * *' is not a valid cron expression",
      "launch.survey.db": "is required",
      "launch.extra_vars": "x: too long",
    });
  });

  it("previews the recurrence as typed, and nothing before it is typed or while a date is bad", () => {
    const values = toScheduleValues(makeSchedule(), template, "UTC");
    expect(toDraftPreview(values, "America/New_York")).toEqual({
      kind: "cron",
      expression: values.expression.trim(),
      timezone: values.timezone,
      start_at: body(values).start_at,
      end_at: body(values).end_at,
      count: 5,
      viewer_tz: "America/New_York",
    });
    expect(toDraftPreview({ ...values, expression: "  " }, "UTC")).toBeNull();
    expect(toDraftPreview({ ...values, start_at: "not a date" }, "UTC")).toBeNull();
  });

  it("names one target for a new schedule: the template, or the workflow picked", () => {
    const values = { ...toScheduleValues(null, null, "UTC"), name: "n", expression: "@daily" };
    expect(toNewScheduleBody(values, null)).toEqual({
      errors: { template_id: "Pick the template to launch" },
    });
    const ofTemplate = toNewScheduleBody({ ...values, template_id: "3" }, template);
    if (!("body" in ofTemplate)) throw new Error(JSON.stringify(ofTemplate));
    expect(ofTemplate.body.template_id).toBe(3);
    expect(ofTemplate.body.launch).toEqual({ survey: {} }); // blank answers: the defaults apply
    expect("workflow_id" in ofTemplate.body).toBe(false);

    const workflow = { ...values, target_kind: "workflow" as const, template_id: "3" };
    expect(toNewScheduleBody(workflow, template)).toEqual({
      errors: { workflow_id: "Pick the workflow to launch" },
    });
    // a bad date and a missing workflow are both shown at once
    expect(toNewScheduleBody({ ...workflow, start_at: "nope" }, template)).toEqual({
      errors: {
        start_at: "is not a date and time in UTC",
        workflow_id: "Pick the workflow to launch",
      },
    });
    const ofWorkflow = toNewScheduleBody({ ...workflow, workflow_id: "12" }, template);
    if (!("body" in ofWorkflow)) throw new Error(JSON.stringify(ofWorkflow));
    expect(ofWorkflow.body.workflow_id).toBe(12);
    // the workflow's nodes carry their own launch values: none sent, nor the template
    expect("launch" in ofWorkflow.body).toBe(false);
    expect("template_id" in ofWorkflow.body).toBe(false);
  });

  it("edits a workflow's schedule without launch values", () => {
    const schedule = makeSchedule({
      target_kind: "workflow",
      template_id: null,
      template_name: "",
      workflow_id: 12,
      workflow_name: "release",
      launch: { survey: {} },
    });
    const values = toScheduleValues(schedule, null, "UTC");
    expect([values.target_kind, values.workflow_id, values.template_id]).toEqual([
      "workflow",
      "12",
      "",
    ]);
    const sent = body({ ...values, launch: { ...values.launch, limit: "smuggled" } }, template);
    expect("launch" in sent).toBe(false);
    expect(sent.name).toBe("nightly");
  });
});
