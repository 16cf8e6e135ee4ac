import { MantineProvider, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "@/api/errors";
import { FormModal } from "@/components/form-modal";
import { useServerErrors } from "@/lib/form-errors";

const conflict = new ApiError(422, "Invalid Input", "", [
  { field: "name", message: "taken" },
  { field: "colour", message: "unknown field" },
]);

function NameDialog({ onClose, pending = false }: { onClose: () => void; pending?: boolean }) {
  const form = useForm({ mode: "uncontrolled", initialValues: { name: "" } });
  const serverErrors = useServerErrors(form);
  const submit = form.onSubmit(() => {
    serverErrors.clear();
    serverErrors.show(conflict);
  });
  return (
    <FormModal
      onClose={onClose}
      title="New thing"
      onSubmit={submit}
      error={serverErrors.message}
      submitLabel="Create thing"
      pending={pending}
    >
      <TextInput label="Name" key={form.key("name")} {...form.getInputProps("name")} />
    </FormModal>
  );
}

function renderDialog(props: { onClose: () => void; pending?: boolean }) {
  render(
    <MantineProvider>
      <NameDialog {...props} />
    </MantineProvider>,
  );
}

describe("FormModal", () => {
  it("shows a failed submit's field errors at the fields and the rest above the buttons", async () => {
    renderDialog({ onClose: vi.fn() });
    const dialog = screen.getByRole("dialog", { name: "New thing" });
    expect(dialog).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole("button", { name: "Create thing" }));

    expect(screen.getByRole("textbox", { name: "Name" })).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("taken")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("colour: unknown field");
  });

  it("closes on Cancel", async () => {
    const onClose = vi.fn();
    renderDialog({ onClose });
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it("shows the submit button as busy while the request is out", () => {
    renderDialog({ onClose: vi.fn(), pending: true });
    expect(screen.getByRole("button", { name: "Create thing" })).toHaveAttribute(
      "data-loading",
      "true",
    );
  });
});
