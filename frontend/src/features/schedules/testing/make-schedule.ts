import type { Schemas } from "@/api/client";
import { makeTemplate as makeAnyTemplate, question } from "@/testing/make-template";

/** A template with a survey and some allowed overrides, as the API returns it. */
export function makeTemplate(overrides: Partial<Schemas["TemplateRead"]> = {}) {
  return makeAnyTemplate({
    name: "rman-check",
    playbook: "rman.yml",
    repository: { id: 1, name: "playbooks" },
    overridable: ["limit", "extra_vars"],
    survey: [
      question("db", "Database", "text", { required: true }),
      question("token", "Token", "password"),
      question("days", "Days", "integer", { default: 7 }),
    ],
    ...overrides,
  });
}

export function makeSchedule(
  overrides: Partial<Schemas["ScheduleRead"]> = {},
): Schemas["ScheduleRead"] {
  return {
    id: 9,
    project_id: 1,
    target_kind: "template",
    template_id: 3,
    template_name: "rman-check",
    workflow_id: null,
    workflow_name: "",
    name: "nightly",
    description: "",
    kind: "cron",
    expression: "30 2 * * 1,3,5",
    timezone: "Europe/Berlin",
    start_at: "2026-03-01T00:00:00Z",
    end_at: null,
    enabled: true,
    disabled_reason: "",
    missed_policy: "skip",
    plan: false,
    launch: { limit: "db1", survey: { db: "ORCL", token: "********" } },
    owner_id: 1,
    owner_name: "admin",
    next_fire_at: "2026-03-02T01:30:00Z",
    last_fired_at: null,
    last_run_id: null,
    last_workflow_run_id: null,
    last_skipped_at: null,
    last_skipped_reason: "",
    created_at: "",
    updated_at: "",
    ...overrides,
  };
}
