import { screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/client";
import { PlanPanel } from "@/features/plans/components/plan-panel";
import { makeRun } from "@/testing/make-run";
import { renderWithProviders, testQueryClient } from "@/testing/render";

type Plan = Schemas["PlanRead"];

const PLAN: Plan = {
  run_id: 7,
  status: "successful",
  summary: "1 host changes, 1 task, 1 unknown",
  hosts_changing: ["db1"],
  host_count: 1,
  task_count: 1,
  unknown_count: 1,
  tasks: [
    {
      task: "ask the listener",
      task_path: "listener.yml:9",
      action: "ansible.builtin.command",
      outcome: "unknown",
      hosts: [
        { host: "db1", counter: 4, occurrence: 1, diff: "", reason: "skipped in check mode" },
      ],
    },
    {
      task: "write the config",
      task_path: "listener.yml:4",
      action: "ansible.builtin.copy",
      outcome: "change",
      hosts: [{ host: "db1", counter: 3, occurrence: 1, diff: "+PORT=1521", reason: "" }],
    },
  ],
  tasks_truncated: false,
  expires_at: "2026-11-29T00:00:00Z",
  expired: false,
  binding: {
    commit: "0123456789abcdef",
    inventory_hosts: 1,
    inventory_recorded: true,
    changed: [],
  },
  approval: {
    required: true,
    state: "waiting",
    decided_by_id: null,
    decided_by: "",
    comment: "",
    decided_at: null,
    who: "a project operator, manager or owner other than its launcher",
    can_approve: false,
    approve_reason: "You launched it.",
  },
  apply_run_id: null,
  apply_status: null,
  apply_refusal: "plan 7 waits for an approval",
};

// the same tasks as the task pages give them: one page, each task's hosts asked apart
const TASKS: Schemas["PlanTaskPage"] = {
  items: PLAN.tasks.map((task) => ({
    key: task.hosts[0]?.counter ?? 0,
    task: task.task,
    task_path: task.task_path,
    action: task.action,
    outcome: task.outcome,
    host_count: task.hosts.length,
    result_count: task.hosts.length,
  })),
  next_after: null,
};

function show(run: Schemas["RunRead"], plan?: Plan) {
  const client = testQueryClient();
  if (plan) {
    const key = ["projects", run.project_id, "runs", run.id, "plan"];
    const version = `${run.status}:${run.event_count}`;
    client.setQueryData([...key, version], plan);
    client.setQueryData([...key, "tasks", version], { pages: [TASKS], pageParams: [undefined] });
    for (const task of plan.tasks) {
      const page: Schemas["PlanHostPage"] = { items: task.hosts, next_after: null };
      client.setQueryData([...key, "task", task.hosts[0]?.counter ?? 0], {
        pages: [page],
        pageParams: [undefined],
      });
    }
  }
  renderWithProviders(
    <MemoryRouter>
      <PlanPanel run={run} />
    </MemoryRouter>,
    client,
  );
}

describe("PlanPanel", () => {
  it("shows a plan's summary, its unknown first, and why it cannot be applied yet", () => {
    show(makeRun({ id: 7, kind: "plan", status: "successful" }), PLAN);
    expect(
      screen.getByRole("heading", { name: "Plan: 1 host changes, 1 task, 1 unknown" }),
    ).toBeInTheDocument();
    const tasks = screen.getAllByText(/^(ask the listener|write the config)$/);
    expect(tasks.map((t) => t.textContent)).toEqual(["ask the listener", "write the config"]);
    expect(screen.getByText("+PORT=1521")).toBeInTheDocument();
    expect(screen.getByText("waiting for approval")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Apply this plan" })).toBeDisabled();
    expect(screen.getByText("plan 7 waits for an approval")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Approve" })).not.toBeInTheDocument();
  });

  it("lets another person approve", () => {
    const approvable = { ...PLAN, approval: { ...PLAN.approval, can_approve: true } };
    show(makeRun({ id: 7, kind: "plan", status: "successful" }), approvable);
    expect(screen.getByRole("button", { name: "Approve" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Reject" })).toBeEnabled();
  });

  it("flags an apply's unplanned changes and links its plan", () => {
    const run = makeRun({
      id: 9,
      kind: "apply",
      plan_id: 7,
      plan: {
        plan_id: 7,
        approval: "approved",
        approved_by: "dba2",
        approval_comment: "ok for tonight",
        apply_run_id: 9,
        unplanned: [
          { host: "db1", task: "restart", task_path: "listener.yml:12", occurrence: 1, counter: 8 },
        ],
        unplanned_count: 1,
      },
    });
    show(run);
    expect(screen.getByRole("link", { name: "plan #7" })).toHaveAttribute(
      "href",
      "/projects/1/runs/7",
    );
    expect(screen.getByText("1 unplanned change")).toBeInTheDocument();
    expect(screen.getByText("restart")).toBeInTheDocument();
  });

  it("shows nothing for a plain run", () => {
    show(makeRun({ kind: "run" }));
    expect(screen.queryByText(/plan/i)).not.toBeInTheDocument();
  });
});
