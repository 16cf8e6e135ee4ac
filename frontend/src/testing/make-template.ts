import type { Schemas } from "@/api/client";

type Template = Schemas["TemplateRead"];
type Question = Schemas["Question"];

/** A survey question, optional unless `rest` says otherwise (a default, choices, required). */
export function question(
  variable: string,
  label: string,
  type: Question["type"],
  rest: Partial<Question> = {},
): Question {
  return { variable, label, description: "", type, required: false, ...rest };
}

/**
 * A template as the API reads it, for tests: it runs as configured (no survey, no overrides);
 * `overrides` give it what the test is about.
 */
export function makeTemplate(overrides: Partial<Template> = {}): Template {
  return {
    id: 3,
    project_id: 1,
    name: "patch",
    description: "",
    playbook: "site.yml",
    repository_id: 1,
    repository: { id: 1, name: "repo" },
    inventory_id: 2,
    inventory: { id: 2, name: "prod" },
    environment_id: null,
    environment: null,
    ssh_key_id: null,
    ssh_key: null,
    become_key_id: null,
    become_key: null,
    vault_key_ids: [],
    vault_keys: [],
    extra_vars: {},
    limit: "",
    tags: "",
    skip_tags: "",
    check_mode: false,
    diff_mode: false,
    verbosity: 0,
    forks: null,
    timeout_seconds: null,
    overridable: [],
    install_requirements: false,
    ansible_venv: "",
    launch_var_exceptions: [],
    labels: [],
    plans_allowed: false,
    plan_approval: false,
    use_fact_cache: false,
    preflight: "off",
    runner_group_id: null,
    survey: [],
    created_at: "",
    updated_at: "",
    permissions: ["view", "run", "write"],
    ...overrides,
  };
}
