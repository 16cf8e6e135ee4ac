import type { Schemas } from "@/api/client";
import { formatDuration } from "@/lib/format";

type Waiting = Schemas["WaitingApproval"];

/** The navigation's count: nothing for none, "99+" past 99. */
export function badgeLabel(total: number | undefined): string | null {
  if (!total || total < 1) return null;
  return total > 99 ? "99+" : String(total);
}

/** Who asked: "alice", "via schedule 3 (alice)", "via webhook 2 (bob)"; a deleted account. */
export function askedBy(
  item: Pick<Waiting, "launched_by" | "launch_type" | "schedule_id" | "webhook_id">,
): string {
  const who = item.launched_by || "a deleted user";
  if (item.launch_type === "schedule")
    return `via schedule${item.schedule_id !== null ? ` ${item.schedule_id}` : ""} (${who})`;
  if (item.launch_type === "webhook")
    return `via webhook${item.webhook_id !== null ? ` ${item.webhook_id}` : ""} (${who})`;
  return who;
}

/** What runs once approved: "template patch-db, approval 'go live?'"; "nothing more". */
export function whatRunsNext(item: Pick<Waiting, "next">): string {
  if (item.next.length === 0) return "nothing more: the workflow ends";
  return item.next
    .map((step) =>
      step.kind === "template"
        ? `template ${step.name || `#${step.template_id ?? "?"}`}`
        : `approval '${step.name || step.key}'`,
    )
    .join(", ");
}

/** How long it may still wait: "denied in 4 min 10 s", "past its deadline"; null: forever. */
export function timeLeft(item: Pick<Waiting, "deadline_at">, now: number): string | null {
  if (!item.deadline_at) return null;
  const left = (Date.parse(item.deadline_at) - now) / 1000;
  return left > 0 ? `denied in ${formatDuration(left)}` : "past its deadline";
}
