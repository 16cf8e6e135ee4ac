import { MantineProvider } from "@mantine/core";
import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import type { Schemas } from "@/api/client";
import { ApprovalDecision } from "@/features/workflows/components/approval-decision";
import { OWN, WHO, makeApproval } from "@/features/workflows/testing/make-approval";

function gate(
  approval: Partial<Schemas["ApprovalRead"]>,
  status: Schemas["NodeStatus"] = "waiting",
) {
  return {
    key: "gate",
    kind: "approval",
    name: "ship it?",
    template_id: null,
    status,
    run_id: null,
    timeout_seconds: null,
    deadline_at: null,
    decided_by: "",
    decided_at: null,
    reason: "",
    started_at: "2026-11-27T07:00:00Z",
    finished_at: null,
    approval: makeApproval(approval),
  } as Schemas["NodeRunRead"];
}

function show(node: Schemas["NodeRunRead"], canDecide = true) {
  const onDecide = vi.fn();
  render(
    <MantineProvider>
      <ApprovalDecision node={node} canDecide={canDecide} onDecide={onDecide} />
    </MantineProvider>,
  );
  return onDecide;
}

describe("ApprovalDecision", () => {
  it("disables Approve for the launcher, says why and who may, and lets them deny", () => {
    const onDecide = show(gate({ can_approve: false, approve_reason: OWN }));
    const approve = screen.getByRole("button", { name: "Approve gate" });
    expect(approve).toBeDisabled();
    expect(approve).toHaveAttribute("title", OWN);
    expect(screen.getByRole("note")).toHaveTextContent(OWN);
    expect(screen.getByText(`May approve: ${WHO}`)).toBeInTheDocument();
    fireEvent.click(approve);
    expect(onDecide).not.toHaveBeenCalled();
    const deny = screen.getByRole("button", { name: "Deny gate" });
    expect(deny).toBeEnabled();
    fireEvent.click(deny);
    expect(onDecide).toHaveBeenCalledWith("deny");
  });

  it("lets another approver approve", () => {
    const onDecide = show(gate({}));
    fireEvent.click(screen.getByRole("button", { name: "Approve gate" }));
    expect(onDecide).toHaveBeenCalledWith("approve");
    expect(screen.queryByRole("note")).toBeNull();
  });

  it("shows a viewer who may approve, without buttons; nothing once decided", () => {
    const denied = "permission 'workflow:approve' is required in project 'p'";
    show(
      gate({ can_approve: false, approve_reason: denied, can_deny: false, deny_reason: denied }),
      false,
    );
    expect(screen.queryByRole("button")).toBeNull();
    expect(screen.getByText(`May approve: ${WHO}`)).toBeInTheDocument();
  });

  it("draws nothing for a node that no longer waits", () => {
    show(gate({}, "successful"));
    expect(screen.queryByText(/May approve/)).toBeNull();
    expect(screen.queryByRole("button")).toBeNull();
  });
});
