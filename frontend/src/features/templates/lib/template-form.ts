import type { Schemas } from "@/api/client";
import {
  type QuestionValues,
  toQuestion,
  toQuestionValues,
} from "@/features/templates/lib/survey-form";

type Template = Schemas["TemplateRead"];
type TemplateCreate = Schemas["TemplateCreate"];
export type Overridable = Schemas["OverridableField"];

export const OVERRIDABLE: { value: Overridable; label: string }[] = [
  { value: "limit", label: "Limit" },
  { value: "tags", label: "Tags" },
  { value: "skip_tags", label: "Skip tags" },
  { value: "check_mode", label: "Check mode" },
  { value: "diff_mode", label: "Diff mode" },
  { value: "verbosity", label: "Verbosity" },
  { value: "forks", label: "Forks" },
  { value: "timeout_seconds", label: "Timeout" },
  { value: "extra_vars", label: "Extra vars" },
  { value: "inventory_id", label: "Inventory" },
];

export const VERBOSITY = ["0", "1", "2", "3", "4"].map((value) => ({
  value,
  label: value === "0" ? "0 (normal)" : `${value} (-${"v".repeat(Number(value))})`,
}));

/** Form fields are named like the body's, so errors (`survey.2.choices`) find their inputs. */
export interface TemplateFormValues {
  name: string;
  description: string;
  playbook: string;
  repository_id: string;
  inventory_id: string;
  environment_id: string;
  ssh_key_id: string;
  become_key_id: string;
  vault_key_ids: string[];
  extra_vars: string; // JSON text
  limit: string;
  tags: string;
  skip_tags: string;
  check_mode: boolean;
  diff_mode: boolean;
  verbosity: string;
  forks: number | "";
  timeout_seconds: number | "";
  overridable: Overridable[];
  survey: QuestionValues[];
}

const id = (value: number | null | undefined) => (value == null ? "" : String(value));

export function toTemplateValues(t: Template | null): TemplateFormValues {
  return {
    name: t?.name ?? "",
    description: t?.description ?? "",
    playbook: t?.playbook ?? "",
    repository_id: id(t?.repository_id),
    inventory_id: id(t?.inventory_id),
    environment_id: id(t?.environment_id),
    ssh_key_id: id(t?.ssh_key_id),
    become_key_id: id(t?.become_key_id),
    vault_key_ids: (t?.vault_key_ids ?? []).map(String),
    extra_vars: t && Object.keys(t.extra_vars).length ? JSON.stringify(t.extra_vars, null, 2) : "",
    limit: t?.limit ?? "",
    tags: t?.tags ?? "",
    skip_tags: t?.skip_tags ?? "",
    check_mode: t?.check_mode ?? false,
    diff_mode: t?.diff_mode ?? false,
    verbosity: String(t?.verbosity ?? 0),
    forks: t?.forks ?? "",
    timeout_seconds: t?.timeout_seconds ?? "",
    overridable: t?.overridable ?? [],
    survey: (t?.survey ?? []).map(toQuestionValues),
  };
}

/** JSON text as an object; an error message (for the field) when it is not one. */
export function parseExtraVars(text: string): Record<string, unknown> | string {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
    return 'must be a JSON object: { "name": value, … }';
  } catch (error) {
    return `not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
}

const ref = (value: string) => (value === "" ? null : Number(value));

export function toTemplateBody(
  v: TemplateFormValues,
  extraVars: Record<string, unknown>,
): TemplateCreate {
  return {
    name: v.name,
    description: v.description,
    playbook: v.playbook,
    // 0 is no id: the server names the field in its answer
    repository_id: ref(v.repository_id) ?? 0,
    inventory_id: ref(v.inventory_id) ?? 0,
    environment_id: ref(v.environment_id),
    ssh_key_id: ref(v.ssh_key_id),
    become_key_id: ref(v.become_key_id),
    vault_key_ids: v.vault_key_ids.map(Number),
    extra_vars: extraVars,
    limit: v.limit,
    tags: v.tags,
    skip_tags: v.skip_tags,
    check_mode: v.check_mode,
    diff_mode: v.diff_mode,
    verbosity: Number(v.verbosity),
    forks: v.forks === "" ? null : v.forks,
    timeout_seconds: v.timeout_seconds === "" ? null : v.timeout_seconds,
    overridable: v.overridable,
    survey: v.survey.map(toQuestion),
  };
}
