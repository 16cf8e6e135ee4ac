import { screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { DetailsPage } from "@/components/details-page";
import { renderWithProviders } from "@/testing/render";

function Page({ id }: { id: number | null }) {
  return (
    <MemoryRouter>
      <DetailsPage
        id={id}
        notFound="Schedule not found"
        back="/projects/1/schedules"
        backLabel="All schedules"
      >
        {(scheduleId) => <h1>Schedule {scheduleId}</h1>}
      </DetailsPage>
    </MemoryRouter>
  );
}

describe("DetailsPage", () => {
  it("shows the thing under a link back to its list", () => {
    renderWithProviders(<Page id={7} />);
    expect(screen.getByRole("heading", { name: "Schedule 7" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "← All schedules" })).toHaveAttribute(
      "href",
      "/projects/1/schedules",
    );
    expect(screen.queryByText("Schedule not found")).not.toBeInTheDocument();
  });

  it("says not found, and asks for nothing, when the URL holds no id", () => {
    renderWithProviders(<Page id={null} />);
    expect(screen.getByText("Schedule not found")).toBeInTheDocument();
    expect(screen.queryByRole("heading")).not.toBeInTheDocument();
    expect(screen.queryByRole("link")).not.toBeInTheDocument();
  });
});
