import { MantineProvider } from "@mantine/core";
import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { LaunchedVia } from "@/features/runs/components/launched-via";

const show = (run: Parameters<typeof LaunchedVia>[0]["run"]) =>
  render(
    <MemoryRouter>
      <MantineProvider>
        <LaunchedVia run={run} />
      </MantineProvider>
    </MemoryRouter>,
  );

describe("LaunchedVia", () => {
  it("links a run to the schedule or webhook that launched it", () => {
    show({ project_id: 2, launch_type: "schedule", schedule_id: 7, webhook_id: null });
    expect(screen.getByRole("link", { name: "schedule 7" })).toHaveAttribute(
      "href",
      "/projects/2/schedules/7",
    );
  });

  it("links a webhook's run, and says how a person's was launched", () => {
    show({ project_id: 2, launch_type: "webhook", schedule_id: null, webhook_id: 4 });
    expect(screen.getByRole("link", { name: "webhook 4" })).toHaveAttribute(
      "href",
      "/projects/2/webhooks/4",
    );
    show({ project_id: 2, launch_type: "ui", schedule_id: null, webhook_id: null });
    expect(screen.getByText("ui")).toBeInTheDocument();
  });
});
