import { screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/client";
import { HostDriftSection, ProjectDriftView } from "@/features/plans/components/drift";
import { renderWithProviders, testQueryClient } from "@/testing/render";

const TASK: Schemas["PlanTask"] = {
  task: "write the config",
  task_path: "site.yml:4",
  action: "ansible.builtin.copy",
  outcome: "change",
  hosts: [{ host: "db1", counter: 3, occurrence: 1, diff: "-port=9999\n+port=8080", reason: "" }],
};

const DRIFT: Schemas["ProjectDrift"] = {
  templates: [
    {
      template_id: 3,
      template_name: "listener",
      host_count: 1,
      task_count: 1,
      hosts: ["db1"],
      detected_at: "2026-11-28T03:00:00Z",
      checked_at: "2026-11-28T03:00:00Z",
      plan_run_id: 12,
      can_apply: true,
      apply_refusal: "",
    },
    {
      template_id: 4,
      template_name: "motd",
      host_count: 1,
      task_count: 1,
      hosts: ["db1"],
      detected_at: null,
      checked_at: null,
      plan_run_id: 13,
      can_apply: false,
      apply_refusal: "plan 13 expired at 2026-11-27T03:00:00+00:00: plan again",
    },
  ],
  hosts: [
    {
      host: "db1",
      templates: [
        { template_id: 3, template_name: "listener" },
        { template_id: 4, template_name: "motd" },
      ],
    },
  ],
};

function show(ui: React.ReactNode, key: unknown[], data: unknown) {
  const client = testQueryClient();
  client.setQueryData(key, data);
  renderWithProviders(<MemoryRouter>{ui}</MemoryRouter>, client);
}

describe("drift", () => {
  it("lists the drifted templates with apply to fix, or why not, and their hosts", () => {
    show(<ProjectDriftView projectId={1} />, ["projects", 1, "drift", "all"], DRIFT);
    const buttons = screen.getAllByRole("button", { name: "Apply to fix" });
    expect(buttons.map((b) => (b as HTMLButtonElement).disabled)).toEqual([false, true]);
    expect(screen.getByText(/plan 13 expired/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "plan #12" })).toHaveAttribute(
      "href",
      "/projects/1/runs/12",
    );
    const table = screen.getByRole("table", { name: "Hosts in drift" });
    expect(table).toHaveTextContent("listener, motd");
  });

  it("says so when nothing drifted", () => {
    show(<ProjectDriftView projectId={1} />, ["projects", 1, "drift", "all"], {
      templates: [],
      hosts: [],
    });
    expect(screen.getByText(/^No drift/)).toBeInTheDocument();
  });

  it("shows on a host what each drifted template would change there", () => {
    const host: Schemas["HostDrift"] = {
      host: "db1",
      templates: [
        {
          template_id: 3,
          template_name: "listener",
          detected_at: null,
          tasks: [TASK],
          plan_run_id: 12,
          can_apply: true,
          apply_refusal: "",
        },
      ],
    };
    show(
      <HostDriftSection projectId={1} host="db1" />,
      ["projects", 1, "drift", "host", "db1"],
      host,
    );
    expect(screen.getByText("listener: drift")).toBeInTheDocument();
    expect(screen.getByText(/\+port=8080/)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Apply to fix" })).toBeEnabled();
  });
});
