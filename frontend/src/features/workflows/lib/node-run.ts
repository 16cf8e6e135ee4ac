import type { Schemas } from "@/api/client";
import { formatDuration } from "@/lib/format";

type NodeRun = Schemas["NodeRunRead"];

/** A node's status as the console shows it: a launched node whose run still waits for a slot
 * is `queued` (the server's node status says `running` from the launch on). */
export type ShownStatus = Schemas["NodeStatus"] | "queued";

export function shownStatus(node: Pick<NodeRun, "status" | "run_status">): ShownStatus {
  return node.status === "running" && node.run_status === "queued" ? "queued" : node.status;
}

/**
 * How long a node took from its start (a run launched, an approval waiting) to its end, or
 * has taken at `now` while under way; null for a node that never started (pending, skipped).
 */
export function nodeDuration(
  node: Pick<NodeRun, "started_at" | "finished_at">,
  now: number,
): string | null {
  if (!node.started_at) return null;
  const end = node.finished_at ? Date.parse(node.finished_at) : now;
  return formatDuration((end - Date.parse(node.started_at)) / 1000);
}

/** What the Approve and Deny buttons of a node show: each enabled or disabled with the
 * server's reason; `who` says who may approve. `shown`: whether a decision can be taken at all
 * now (a waiting approval node) — the buttons are drawn only then. */
export interface DecisionButtons {
  shown: boolean;
  who: string;
  approve: { enabled: boolean; reason: string };
  deny: { enabled: boolean; reason: string };
}

/**
 * The decision buttons of a node, from what the server says of the caller (`approval`): the
 * rule is the server's (a launcher may not approve their own run when the node says so), the
 * console only shows it. A read without `approval` (an older server) falls back to the run's
 * `can_decide`.
 */
export function decisionButtons(
  node: Pick<NodeRun, "kind" | "status" | "approval">,
  canDecide: boolean,
): DecisionButtons {
  const approval = node.approval;
  const waiting = node.kind === "approval" && node.status === "waiting";
  if (!approval) {
    const reason = canDecide ? "" : "you may not decide approvals in this project";
    return {
      shown: waiting && canDecide,
      who: "",
      approve: { enabled: canDecide, reason },
      deny: { enabled: canDecide, reason },
    };
  }
  return {
    shown: waiting && (approval.can_approve || approval.can_deny),
    who: approval.who,
    approve: { enabled: approval.can_approve, reason: approval.approve_reason },
    deny: { enabled: approval.can_deny, reason: approval.deny_reason },
  };
}

/** What a node is, in a few words: its template, `plan: template`, `apply: the plan of
 * 'key'` or `approval: question`. */
export function nodeLabel(
  node: Pick<NodeRun, "kind" | "template_name" | "name" | "plan_node">,
): string {
  const template = node.template_name || "template";
  if (node.kind === "template") return template;
  if (node.kind === "plan") return `plan: ${template}`;
  if (node.kind === "apply") return `apply: the plan of '${node.plan_node ?? "?"}'`;
  return `approval: ${node.name}`;
}
