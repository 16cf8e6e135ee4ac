import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { RowActions, RowButton } from "@/components/row-actions";
import { renderWithProviders } from "@/testing/render";

describe("RowActions", () => {
  it("shows the row's own buttons first, then edit and delete, named after the row", async () => {
    const onEdit = vi.fn();
    const onDelete = vi.fn();
    const onHosts = vi.fn();
    renderWithProviders(
      <RowActions name="db-prod" onEdit={onEdit} onDelete={onDelete}>
        <RowButton label="Hosts of db-prod" variant="light" onClick={onHosts}>
          Hosts
        </RowButton>
      </RowActions>,
    );
    const buttons = screen.getAllByRole("button");
    expect(buttons.map((b) => b.getAttribute("aria-label"))).toEqual([
      "Hosts of db-prod",
      "Edit db-prod",
      "Delete db-prod",
    ]);
    await userEvent.click(screen.getByRole("button", { name: "Delete db-prod" }));
    expect(onDelete).toHaveBeenCalledOnce();
    expect(onEdit).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole("button", { name: "Hosts of db-prod" }));
    expect(onHosts).toHaveBeenCalledOnce();
  });

  it("hides a button without its handler, and keeps the row's own buttons", () => {
    renderWithProviders(
      <RowActions name="db-prod">
        <RowButton label="Hosts of db-prod" onClick={() => {}}>
          Hosts
        </RowButton>
      </RowActions>,
    );
    expect(screen.getByRole("button", { name: "Hosts of db-prod" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Edit db-prod" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Delete db-prod" })).not.toBeInTheDocument();
  });

  it("renders nothing when there is nothing to do", () => {
    const { container } = renderWithProviders(<RowActions name="db-prod" />);
    expect(container.querySelector("button")).toBeNull();
  });
});
