import type { Schemas } from "@/api/client";

/** The server's words for the launcher, who may not approve their own run's gate. */
export const OWN =
  "the approval of node 'gate' needs someone other than alice, who launched this run";
/** The server's words for who may decide. */
export const WHO =
  "a global admin or a project operator, manager or owner (permission 'workflow:approve')," +
  " other than alice, who launched this run";

/** An approval node's rule as the API reads it, for someone who may approve and deny. */
export function makeApproval(over: Partial<Schemas["ApprovalRead"]> = {}): Schemas["ApprovalRead"] {
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
