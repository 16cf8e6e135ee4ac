import { MantineProvider } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ScheduleFormModal } from "@/features/schedules/components/schedule-form-modal";
import { browserZone } from "@/features/schedules/lib/zones";
import { makeTemplate } from "@/features/schedules/testing/make-schedule";

function renderForm(template: ReturnType<typeof makeTemplate> | null = makeTemplate()) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MantineProvider>
        <ScheduleFormModal projectId={1} schedule={null} template={template} onClose={vi.fn()} />
      </MantineProvider>
    </QueryClientProvider>,
  );
}

describe("ScheduleFormModal", () => {
  it("asks the template's survey and allowed overrides as launch values", () => {
    renderForm();
    expect(screen.getByRole("textbox", { name: /Database/ })).toBeRequired();
    expect(screen.getByLabelText("Token")).toHaveAttribute("type", "password");
    expect(screen.getByRole("textbox", { name: "Days" })).toHaveValue("7");
    expect(screen.getByRole("textbox", { name: "Limit" })).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Extra vars" })).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Time zone" })).toHaveValue(
      `${browserZone()} (your zone)`,
    );
  });

  it("hides the overrides a template does not allow", () => {
    renderForm(makeTemplate({ overridable: [], survey: [] }));
    expect(screen.queryByRole("textbox", { name: "Limit" })).not.toBeInTheDocument();
    expect(screen.queryByText("Launch values")).not.toBeInTheDocument();
  });

  it("takes a multi-line recurrence when the kind is RRULE", async () => {
    renderForm();
    expect(screen.getByRole("textbox", { name: /Cron expression/ })).toBeInTheDocument();
    await userEvent.click(screen.getByText("Recurrence (RRULE)"));
    const rrule = screen.getByRole("textbox", { name: /Recurrence/ });
    expect(rrule.tagName).toBe("TEXTAREA");
  });

  it("picks a template or a workflow when made outside a template's page", async () => {
    renderForm(null);
    expect(screen.getByRole("textbox", { name: "Template" })).toBeRequired();
    expect(screen.queryByRole("textbox", { name: "Workflow" })).not.toBeInTheDocument();
    await userEvent.click(screen.getByText("Workflow"));
    expect(screen.getByRole("textbox", { name: "Workflow" })).toBeRequired();
    expect(screen.queryByRole("textbox", { name: "Template" })).not.toBeInTheDocument();
    expect(screen.queryByText("Launch values")).not.toBeInTheDocument();
    expect(screen.getByText(/each of its nodes runs with its own/)).toBeInTheDocument();
  });
});
