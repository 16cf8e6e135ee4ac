import { describe, expect, it } from "vitest";
import { decisionButtons } from "@/features/workflows/lib/node-run";
import { OWN, WHO, makeApproval } from "@/features/workflows/testing/make-approval";

describe("the decision buttons of a node", () => {
  it("disables Approve for the launcher with the server's reason, and keeps Deny", () => {
    const mine = makeApproval({ can_approve: false, approve_reason: OWN });
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
      { kind: "approval", status: "waiting", approval: makeApproval() },
      true,
    );
    expect(buttons.shown).toBe(true);
    expect(buttons.approve).toEqual({ enabled: true, reason: "" });
  });

  it("shows no buttons to whom may decide nothing, nor once the node stopped waiting", () => {
    const denied = "permission 'workflow:approve' is required in project 'p'";
    const viewer = makeApproval({
      can_approve: false,
      approve_reason: denied,
      can_deny: false,
      deny_reason: denied,
    });
    expect(
      decisionButtons({ kind: "approval", status: "waiting", approval: viewer }, false).shown,
    ).toBe(false);
    expect(
      decisionButtons({ kind: "approval", status: "successful", approval: makeApproval() }, true)
        .shown,
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
