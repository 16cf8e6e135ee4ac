import type { Schemas } from "@/api/client";

type Run = Schemas["RunRead"];

/** A run as the API reads it, for component tests; `overrides` change what the test is about. */
export function makeRun(overrides: Partial<Run> = {}): Run {
  return {
    id: 7,
    project_id: 1,
    template_id: 3,
    template_name: "patch",
    status: "running",
    status_reason: "",
    kind: "run",
    rc: null,
    launched_by_id: 1,
    launched_by: "admin",
    launch_type: "ui",
    source_ip: "10.0.0.5",
    relaunch_of_id: null,
    schedule_id: null,
    webhook_id: null,
    params: {
      version: 1,
      playbook: "site.yml",
      repository_id: 4,
      inventory_id: 5,
      limit: "",
      tags: "",
      skip_tags: "",
      check_mode: false,
      diff_mode: false,
      verbosity: 0,
      // the fields no test here reads stay out: the parameters grow with the runner's options
    } as Run["params"],
    refs: null,
    commit_hash: "",
    created_at: "2025-03-01T12:00:00Z",
    started_at: "2025-03-01T12:00:01Z",
    finished_at: null,
    cancel_requested_at: null,
    line_count: 10,
    event_count: 4,
    runner_group: "default",
    label: "",
    note: "",
    ...overrides,
  };
}
