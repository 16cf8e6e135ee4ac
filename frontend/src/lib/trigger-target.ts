/**
 * What a trigger (a schedule, a webhook) launches: a template's run or a workflow run. The
 * form's part of it, shared by every trigger's form.
 */
import type { Schemas } from "@/api/client";

export type TargetKind = Schemas["TargetKind"];

export const TARGET_KINDS: { value: TargetKind; label: string }[] = [
  { value: "template", label: "Template" },
  { value: "workflow", label: "Workflow" },
];

/** A saved trigger's target, as the API reads it. */
export type Target = Pick<
  Schemas["ScheduleRead"],
  "target_kind" | "template_id" | "template_name" | "workflow_id" | "workflow_name"
>;

/** The target fields of a trigger's form; names as in the body, so errors find the pickers. */
export interface TargetValues {
  target_kind: TargetKind;
  template_id: string;
  /** a workflow target's; its nodes carry their own launch values */
  workflow_id: string;
}

/** A form error (field -> message) or the request body. */
export type Checked<T> = { errors: Record<string, string> } | { body: T };

/** The form's target of a saved trigger, or of a new one (of `templateId` when known). */
export function toTargetValues(saved: Target | null, templateId: number | null): TargetValues {
  return {
    target_kind: saved?.target_kind ?? "template",
    template_id: String(saved?.template_id ?? templateId ?? ""),
    workflow_id: String(saved?.workflow_id ?? ""),
  };
}

/**
 * A new trigger's body with its one target, the template or the workflow picked: an error on
 * the picker when none is, along with the errors of the rest of the body.
 */
export function withTarget<T>(
  v: TargetValues,
  checked: Checked<T>,
): Checked<T & ({ template_id: number } | { workflow_id: number })> {
  const field = v.target_kind === "workflow" ? "workflow_id" : "template_id";
  const id = Number(v[field]);
  const missing = id ? {} : { [field]: `Pick the ${v.target_kind} to launch` };
  if ("errors" in checked || !id) {
    return { errors: { ...("errors" in checked ? checked.errors : {}), ...missing } };
  }
  return {
    body: {
      ...checked.body,
      ...(field === "workflow_id" ? { workflow_id: id } : { template_id: id }),
    },
  };
}
