import type { Schemas } from "@/api/client";

type Event = Schemas["RunEventKind"];

/** The run events a subscription may ask for, in the order people read them. */
export const EVENTS: { value: Event; label: string; description?: string }[] = [
  { value: "started", label: "Started" },
  { value: "succeeded", label: "Succeeded" },
  { value: "failed", label: "Failed" },
  { value: "error", label: "Error", description: "Steward could not run it" },
  { value: "canceled", label: "Canceled" },
  { value: "timed_out", label: "Timed out" },
  { value: "fixed", label: "Fixed", description: "the first success after a failure" },
  { value: "changed", label: "Changed", description: "a successful run that changed something" },
  { value: "long_running", label: "Still running", description: "after N minutes" },
  {
    value: "host_quiet",
    label: "Host quiet",
    description: "a host silent on a task for N minutes, once per host",
  },
  {
    value: "approval_needed",
    label: "Approval needed",
    description: "a workflow's approval, or a plan waiting for one",
  },
  {
    value: "drift_detected",
    label: "Drift detected",
    description: "a scheduled plan found changes since the last clean run, once per change",
  },
  {
    value: "freeze_override",
    label: "Freeze overridden",
    description: "a run launched during a freeze window, with the reason given",
  },
];

export const eventLabel = (event: string) => EVENTS.find((e) => e.value === event)?.label ?? event;

export interface SubscriptionFormValues {
  destination_id: string;
  /** "project", "template" or "schedule" */
  scope: Schemas["SubscriptionScope"];
  template_id: string;
  schedule_id: string;
  events: Event[];
  long_running_minutes: number | "";
  /** empty: the instance's threshold (the one the run page flags quiet hosts at) */
  host_quiet_minutes: number | "";
}

export function toSubscriptionValues(
  s: Schemas["SubscriptionRead"] | null,
  scope: Schemas["SubscriptionScope"],
  templateId: number | null,
  scheduleId: number | null,
): SubscriptionFormValues {
  return {
    destination_id: s ? String(s.destination_id) : "",
    scope: s?.scope ?? scope,
    template_id: String(s?.template_id ?? templateId ?? ""),
    schedule_id: String(s?.schedule_id ?? scheduleId ?? ""),
    events: s?.events ?? ["failed", "error", "timed_out", "fixed"],
    long_running_minutes: s?.long_running_minutes ?? "",
    host_quiet_minutes: s?.host_quiet_minutes ?? "",
  };
}

const id = (value: string) => (value === "" ? 0 : Number(value));

/** A threshold goes only with its event; empty is none. */
const minutes = (v: SubscriptionFormValues, event: Event, value: number | "") =>
  v.events.includes(event) && value !== "" ? value : null;

export function toSubscriptionCreate(v: SubscriptionFormValues): Schemas["SubscriptionCreate"] {
  return {
    destination_id: id(v.destination_id),
    events: v.events,
    ...(v.scope === "template" ? { template_id: id(v.template_id) } : {}),
    ...(v.scope === "schedule" ? { schedule_id: id(v.schedule_id) } : {}),
    long_running_minutes: minutes(v, "long_running", v.long_running_minutes),
    host_quiet_minutes: minutes(v, "host_quiet", v.host_quiet_minutes),
  };
}

export function toSubscriptionUpdate(v: SubscriptionFormValues): Schemas["SubscriptionUpdate"] {
  const { destination_id, events, long_running_minutes, host_quiet_minutes } =
    toSubscriptionCreate(v);
  return { destination_id, events, long_running_minutes, host_quiet_minutes };
}
