import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Schemas } from "@/api/client";
import { LaunchModal } from "@/features/templates/components/launch-modal";
import { makeTemplate, question } from "@/testing/make-template";

const template = makeTemplate({
  overridable: ["limit"],
  install_requirements: true,
  survey: [
    question("who", "Who", "text", { required: true }),
    question("secret", "Secret", "password"),
    question("count", "Count", "integer", { default: 2 }),
    question("go", "Go ahead", "boolean", { default: true }),
  ],
  permissions: ["view", "run"],
});

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
    expect(screen.queryByRole("textbox", { name: /Git ref/ })).not.toBeInTheDocument();
    expect(screen.queryByText("You may not launch this template")).not.toBeInTheDocument();
  });

  it("asks for a git ref when the template lets a launch choose one", () => {
    renderLaunch({ ...template, overridable: ["limit", "ref"] });
    expect(screen.getByRole("textbox", { name: /Git ref/ })).toHaveValue("");
  });

  it("says which hosts a grantee limited to some may run it on", () => {
    renderLaunch({ ...template, launch_hosts: ["dev", "web*"] });
    expect(screen.getByText(/You may run this on: dev, web\*/)).toBeInTheDocument();
  });

  it("says nothing of hosts to who may run it on every host", () => {
    renderLaunch({ ...template, launch_hosts: null });
    expect(screen.queryByText(/You may run this on/)).not.toBeInTheDocument();
  });

  it("warns who may not run the template", () => {
    renderLaunch({ ...template, permissions: ["view"] });
    expect(screen.getByText("You may not launch this template")).toBeInTheDocument();
  });
});
