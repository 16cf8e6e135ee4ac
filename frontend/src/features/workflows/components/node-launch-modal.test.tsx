import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { NodeLaunchModal } from "@/features/workflows/components/node-launch-modal";
import { makeTemplate, question } from "@/testing/make-template";

const template = makeTemplate({
  id: 7,
  name: "deploy",
  overridable: ["limit"],
  survey: [
    question("release", "Release", "text", { required: true }),
    question("db_password", "DB password", "password"),
  ],
});

function open(props: Partial<Parameters<typeof NodeLaunchModal>[0]> = {}) {
  const onApply = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MantineProvider>
        <NodeLaunchModal
          projectId={1}
          nodeKey="ship"
          template={template}
          launch={{ limit: "web1", survey: { release: "v1", db_password: "********" } }}
          errors={[]}
          onClose={vi.fn()}
          onApply={onApply}
          {...props}
        />
      </MantineProvider>
    </QueryClientProvider>,
  );
  return onApply;
}

describe("NodeLaunchModal", () => {
  it("shows the template launch fields with the node's values, a saved secret as set", () => {
    const onApply = open();
    expect(screen.getByRole("textbox", { name: "Limit" })).toHaveValue("web1");
    expect(screen.getByRole("textbox", { name: /Release/ })).toHaveValue("v1");
    expect(screen.getByLabelText("DB password")).toHaveValue("");
    expect(screen.getByText("Set (never shown); type to replace it")).toBeInTheDocument();
    fireEvent.change(screen.getByRole("textbox", { name: "Limit" }), {
      target: { value: "web2" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Apply" }));
    expect(onApply).toHaveBeenCalledWith({
      limit: "web2",
      survey: { release: "v1", db_password: "********" },
    });
  });

  it("puts the save's errors on their fields, and the others above the buttons", () => {
    open({
      errors: [
        { field: "limit", message: "is not a host pattern" },
        { field: "survey.release", message: "is required" },
        { field: "template_id", message: "was deleted" },
      ],
    });
    expect(screen.getByRole("textbox", { name: "Limit" })).toHaveAccessibleDescription(
      "is not a host pattern",
    );
    expect(screen.getByRole("textbox", { name: /Release/ })).toHaveAccessibleDescription(
      "is required",
    );
    expect(screen.getByText("template_id: was deleted")).toBeInTheDocument();
  });
});
