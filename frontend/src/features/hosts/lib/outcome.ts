import type { Schemas } from "@/api/client";

export type Outcome = Schemas["Outcome"];

/** How a run went on one host, as a badge says it; "" is a run recorded before outcomes were
 * kept on hosts. */
export const OUTCOMES: Record<Outcome, { label: string; color: string }> = {
  failed: { label: "failed", color: "red" },
  unreachable: { label: "unreachable", color: "orange" },
  changed: { label: "changed", color: "yellow" },
  ok: { label: "ok", color: "green" },
  "": { label: "ran", color: "gray" },
};
