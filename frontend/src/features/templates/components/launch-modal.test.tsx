import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Schemas } from "@/api/client";
import { LaunchModal } from "@/features/templates/components/launch-modal";

const template: Schemas["TemplateRead"] = {
  id: 3,
  project_id: 1,
  name: "patch",
  description: "",
  playbook: "site.yml",
  repository_id: 1,
  repository: { id: 1, name: "repo" },
  inventory_id: 2,
  inventory: { id: 2, name: "prod" },
  environment_id: null,
  environment: null,
  ssh_key_id: null,
  ssh_key: null,
  become_key_id: null,
  become_key: null,
  vault_key_ids: [],
  vault_keys: [],
  extra_vars: {},
  limit: "",
  tags: "",
  skip_tags: "",
  check_mode: false,
  diff_mode: false,
  verbosity: 0,
  forks: null,
  timeout_seconds: null,
  overridable: ["limit"],
  install_requirements: true,
  ansible_venv: "",
  launch_var_exceptions: [],
  runner_group_id: null,
  survey: [
    { variable: "who", label: "Who", description: "", type: "text", required: true },
    { variable: "secret", label: "Secret", description: "", type: "password", required: false },
    {
      variable: "count",
      label: "Count",
      description: "",
      type: "integer",
      required: false,
      default: 2,
    },
    {
      variable: "go",
      label: "Go ahead",
      description: "",
      type: "boolean",
      required: false,
      default: true,
    },
  ],
  created_at: "",
  updated_at: "",
  permissions: ["view", "run"],
};

function renderLaunch(t: Schemas["TemplateRead"]) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MantineProvider>
        <LaunchModal projectId={1} template={t} onClose={vi.fn()} onLaunched={vi.fn()} />
      </MantineProvider>
    </QueryClientProvider>,
  );
}

describe("LaunchModal", () => {
  it("asks the survey with typed inputs and offers only the allowed overrides", () => {
    renderLaunch(template);
    expect(screen.getByRole("textbox", { name: /Who/ })).toBeRequired();
    expect(screen.getByLabelText("Secret")).toHaveAttribute("type", "password");
    expect(screen.getByRole("textbox", { name: "Count" })).toHaveValue("2");
    expect(screen.getByRole("checkbox", { name: "Go ahead" })).toBeChecked();
    expect(screen.getByRole("textbox", { name: "Limit" })).toBeInTheDocument();
    expect(screen.queryByRole("textbox", { name: "Tags" })).not.toBeInTheDocument();
    expect(screen.queryByText("You may not launch this template")).not.toBeInTheDocument();
  });

  it("warns who may not run the template", () => {
    renderLaunch({ ...template, permissions: ["view"] });
    expect(screen.getByText("You may not launch this template")).toBeInTheDocument();
  });
});
