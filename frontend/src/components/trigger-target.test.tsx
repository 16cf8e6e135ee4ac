import { screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { TriggerState, TriggerTargetLink } from "@/components/trigger-target";
import type { Target } from "@/lib/trigger-target";
import { renderWithProviders } from "@/testing/render";

const ofTemplate: Target = {
  target_kind: "template",
  template_id: 3,
  template_name: "rman-check",
  workflow_id: null,
  workflow_name: "",
};

function link(target: Target, inline = false) {
  renderWithProviders(
    <MemoryRouter>
      <TriggerTargetLink projectId={1} target={target} tab="webhooks" inline={inline} />
    </MemoryRouter>,
  );
}

describe("TriggerTargetLink", () => {
  it("links a template to its page, on the tab asked for", () => {
    link(ofTemplate);
    expect(screen.getByRole("link", { name: "rman-check" })).toHaveAttribute(
      "href",
      expect.stringContaining("/templates/3"),
    );
    expect(screen.queryByText("workflow")).not.toBeInTheDocument();
  });

  it("marks a workflow and links to it", () => {
    link({ ...ofTemplate, target_kind: "workflow", workflow_id: 4, workflow_name: "release" });
    expect(screen.getByText("workflow")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "release" })).toHaveAttribute(
      "href",
      expect.stringContaining("/workflows/4"),
    );
  });

  it("says a deleted target in its place, as a sentence says it inline", () => {
    link({ ...ofTemplate, template_id: null, template_name: "" }, true);
    expect(screen.getByText("a deleted template")).toBeInTheDocument();
    expect(screen.queryByRole("link")).not.toBeInTheDocument();
  });
});

describe("TriggerState", () => {
  const state = (trigger: { enabled: boolean; disabled_reason: string }, finished = false) =>
    renderWithProviders(<TriggerState trigger={trigger} finished={finished} />);

  it("says why Steward turned it off before anything else", () => {
    state({ enabled: true, disabled_reason: "the owner left" }, true);
    expect(screen.getByText("Disabled by Steward")).toBeInTheDocument();
  });

  it("is off, finished or on", () => {
    state({ enabled: false, disabled_reason: "" }, true);
    expect(screen.getByText("Off")).toBeInTheDocument();
    state({ enabled: true, disabled_reason: "" }, true);
    expect(screen.getByText("Finished")).toBeInTheDocument();
    state({ enabled: true, disabled_reason: "" });
    expect(screen.getByText("On")).toBeInTheDocument();
  });
});
