import type { Schemas } from "@/api/client";
import { extraVarsText } from "@/lib/extra-vars";
import { labelNames } from "@/lib/labels";
import type { RunOptionValues } from "@/lib/launch-form";
import {
  type QuestionValues,
  toQuestion,
  toQuestionValues,
} from "@/features/templates/lib/survey-form";

type Template = Schemas["TemplateRead"];
type AnsibleVenv = Schemas["AnsibleVenvRead"];
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
  { value: "ref", label: "Git ref" },
];

/** Form fields are named like the body's, so errors (`survey.2.choices`) find their inputs. */
export interface TemplateFormValues extends RunOptionValues {
  name: string;
  description: string;
  /** slugs a freeze window may name to freeze it */
  labels: string[];
  playbook: string;
  repository_id: string;
  inventory_id: string;
  environment_id: string;
  ssh_key_id: string;
  become_key_id: string;
  vault_key_ids: string[];
  extra_vars: string; // YAML, JSON or name=value lines (lib/extra-vars)
  overridable: Overridable[];
  survey: QuestionValues[];
  install_requirements: boolean;
  ansible_venv: string;
  /** Ansible settings launch values may set all the same (the server's launch_var_exceptions) */
  launch_var_exceptions: string[];
  /** it may be launched as a plan (check + diff), then applied as planned */
  plans_allowed: boolean;
  /** its plans need another person's approval before their apply */
  plan_approval: boolean;
  /** its runs start with the facts earlier runs gathered (Ansible's fact cache) */
  use_fact_cache: boolean;
  /** before ansible-playbook starts: check the target hosts (and skip the failing ones) */
  preflight: Preflight;
}

export type Preflight = TemplateCreate["preflight"];

/** The pre-flight choices, as the form shows them. */
export const PREFLIGHT: { value: Preflight; label: string }[] = [
  { value: "off", label: "Off" },
  { value: "check", label: "Check the hosts, record the failing ones" },
  { value: "skip_unreachable", label: "Check, and leave unreachable hosts out of the run" },
];

/** At most this many exceptions (the server's bound). */
export const EXCEPTIONS_MAX = 20;

/** The warning shown while a template lets launch values set Ansible settings, or null. */
export function exceptionsWarning(names: readonly string[]): string | null {
  if (names.length === 0) return null;
  const listed = names.join(", ");
  return (
    `Whoever may run this template can set ${listed} at launch (and through its survey,` +
    " schedules, webhooks, workflow nodes and relaunches). These are variables Ansible reads" +
    " as settings: they can change how it connects, escalates privileges or runs programs" +
    " on this server. Allow only names your playbook needs and only for people you trust."
  );
}

/** Names typed in the exceptions field: trimmed, without blanks and repeats. */
export function exceptionNames(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter((v) => v !== ""))];
}

/** The picker's value for the server's own Ansible (its path is ""; a picker wants a value). */
export const SERVER_VENV = "(server)";

export interface VenvChoice {
  value: string;
  label: string;
  disabled: boolean;
  /** why it cannot run Ansible, shown under its entry */
  problem: string | null;
}

/** The venv picker's entries: each with its ansible-core version; one with a problem is
 * shown, disabled, with it. */
export function venvChoices(venvs: readonly AnsibleVenv[]): VenvChoice[] {
  return venvs.map((venv) => {
    const name = venv.path === "" ? "The server's own" : venv.path;
    const version = venv.ansible_version
      ? `ansible-core ${venv.ansible_version}`
      : "version unknown";
    return {
      value: venv.path || SERVER_VENV,
      label: `${name} (${version})`,
      disabled: venv.problem !== null,
      problem: venv.problem,
    };
  });
}

const id = (value: number | null | undefined) => (value == null ? "" : String(value));

export function toTemplateValues(t: Template | null): TemplateFormValues {
  return {
    name: t?.name ?? "",
    description: t?.description ?? "",
    labels: t?.labels ?? [],
    playbook: t?.playbook ?? "",
    repository_id: id(t?.repository_id),
    inventory_id: id(t?.inventory_id),
    environment_id: id(t?.environment_id),
    ssh_key_id: id(t?.ssh_key_id),
    become_key_id: id(t?.become_key_id),
    vault_key_ids: (t?.vault_key_ids ?? []).map(String),
    extra_vars: extraVarsText(t?.extra_vars),
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
    install_requirements: t?.install_requirements ?? true,
    ansible_venv: t?.ansible_venv ?? "",
    launch_var_exceptions: t?.launch_var_exceptions ?? [],
    plans_allowed: t?.plans_allowed ?? false,
    plan_approval: t?.plan_approval ?? false,
    use_fact_cache: t?.use_fact_cache ?? false,
    preflight: t?.preflight ?? "off",
  };
}

const ref = (value: string) => (value === "" ? null : Number(value));

export function toTemplateBody(
  v: TemplateFormValues,
  extraVars: Record<string, unknown>,
): TemplateCreate {
  return {
    name: v.name,
    description: v.description,
    labels: labelNames(v.labels),
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
    install_requirements: v.install_requirements,
    ansible_venv: v.ansible_venv,
    launch_var_exceptions: exceptionNames(v.launch_var_exceptions),
    plans_allowed: v.plans_allowed,
    plan_approval: v.plans_allowed && v.plan_approval,
    use_fact_cache: v.use_fact_cache,
    preflight: v.preflight,
  };
}
