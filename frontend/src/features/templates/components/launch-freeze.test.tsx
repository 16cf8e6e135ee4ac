import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Schemas } from "@/api/client";
import {
  type LaunchFreeze,
  LaunchFreezeAlert,
} from "@/features/templates/components/launch-freeze";
import { overridesFreeze } from "@/features/templates/lib/launch-freeze";
import { coming, frozen } from "@/features/templates/testing/make-freeze";
import { renderWithProviders } from "@/testing/render";

/** What useLaunchFreeze gives the dialog, for `freezes` and the reason typed so far. */
function freezeOf(freezes: Schemas["ActiveFreezes"] | undefined, reason = ""): LaunchFreeze {
  return {
    freezes,
    overriding: overridesFreeze(freezes, false),
    reason,
    setReason: vi.fn(),
    withReason: (body) => body,
  };
}

const show = (freeze: LaunchFreeze, refused = false) =>
  renderWithProviders(<LaunchFreezeAlert freeze={freeze} verb="relaunch" refused={refused} />);

describe("LaunchFreezeAlert", () => {
  it("asks who may override for a required reason", () => {
    show(freezeOf(frozen(true)));
    expect(screen.getByRole("alert")).toHaveTextContent("Frozen: “Change freeze” until");
    const reason = screen.getByRole("textbox", { name: /Override reason/ });
    expect(reason).toBeRequired();
    expect(screen.getByText(/You may relaunch during the freeze/)).toBeInTheDocument();
    expect(reason).not.toHaveAttribute("aria-invalid", "true");
  });

  it("marks a blank reason once the server refused it", () => {
    show(freezeOf(frozen(true), "  "), true);
    expect(screen.getByRole("textbox", { name: /Override reason/ })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    expect(screen.getByText("A reason is required")).toBeInTheDocument();
  });

  it("tells who may not override that the server will refuse", () => {
    show(freezeOf(frozen(false)));
    expect(screen.getByRole("alert")).toHaveTextContent(
      "The server will refuse the relaunch: overriding a freeze needs the freeze:override",
    );
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();
  });

  it("warns of a coming freeze, and says nothing outside freezes", () => {
    const { unmount } = show(freezeOf(coming()));
    expect(screen.getByRole("status")).toHaveTextContent("Freeze “Change freeze” starts");
    unmount();
    show(freezeOf(undefined));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
  });
});
