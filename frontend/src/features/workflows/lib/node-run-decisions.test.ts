import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/client";
import { decisionButtons } from "@/features/workflows/lib/node-run";

const OWN = "the approval of node 'gate' needs someone other than alice, who launched this run";
const WHO =
  "a global admin or a project operator, manager or owner (permission 'workflow:approve')," +
  " other than alice, who launched this run";

function approval(over: Partial<Schemas["ApprovalRead"]> = {}): Schemas["ApprovalRead"] {
  return {
    permission: "workflow:approve",
    roles: ["operator", "manager", "owner"],
    approver_must_differ: true,
    excluded: "alice",
    who: WHO,
    can_approve: true,
    approve_reason: "",
    can_deny: true,
    deny_reason: "",
    ...over,
  };
}

describe("the decision buttons of a node", () => {
  it("disables Approve for the launcher with the server's reason, and keeps Deny", () => {
    const mine = approval({ can_approve: false, approve_reason: OWN });
    const buttons = decisionButtons({ kind: "approval", status: "waiting", approval: mine }, true);
    expect(buttons).toEqual({
      shown: true,
      who: WHO,
      approve: { enabled: false, reason: OWN },
      deny: { enabled: true, reason: "" },
    });
  });

  it("enables both for another approver", () => {
    const buttons = decisionButtons(
      { kind: "approval", status: "waiting", approval: approval() },
      true,
    );
    expect(buttons.shown).toBe(true);
    expect(buttons.approve).toEqual({ enabled: true, reason: "" });
  });

  it("shows no buttons to whom may decide nothing, nor once the node stopped waiting", () => {
    const denied = "permission 'workflow:approve' is required in project 'p'";
    const viewer = approval({
      can_approve: false,
      approve_reason: denied,
      can_deny: false,
      deny_reason: denied,
    });
    expect(
      decisionButtons({ kind: "approval", status: "waiting", approval: viewer }, false).shown,
    ).toBe(false);
    expect(
      decisionButtons({ kind: "approval", status: "successful", approval: approval() }, true).shown,
    ).toBe(false);
    expect(
      decisionButtons({ kind: "template", status: "running", approval: null }, true).shown,
    ).toBe(false);
  });

  it("falls back to the run's can_decide when the node says nothing", () => {
    expect(decisionButtons({ kind: "approval", status: "waiting" }, true)).toEqual({
      shown: true,
      who: "",
      approve: { enabled: true, reason: "" },
      deny: { enabled: true, reason: "" },
    });
    expect(decisionButtons({ kind: "approval", status: "waiting" }, false).shown).toBe(false);
  });
});
