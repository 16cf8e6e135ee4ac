import type { Schemas } from "@/api/client";

type Environment = Schemas["EnvironmentRead"];
type EnvironmentCreate = Schemas["EnvironmentCreate"];

export interface EnvVarRow {
  id: string;
  name: string;
  value: string;
}

export interface SecretRow {
  id: string;
  name: string;
  target: Schemas["SecretTarget"];
  key_id: string;
}

/** Field names follow the request body, so the server's errors find their inputs. */
export interface EnvironmentFormValues {
  name: string;
  description: string;
  extra_vars_yaml: string;
  env_vars: EnvVarRow[];
  secrets: SecretRow[];
}

let rows = 0;
/** A key for a list row that stays put when rows above it are removed. */
export function rowId(): string {
  rows += 1;
  return `row-${rows}`;
}

export function toEnvironmentValues(environment: Environment | null): EnvironmentFormValues {
  const extraVars = environment?.extra_vars ?? {};
  return {
    name: environment?.name ?? "",
    description: environment?.description ?? "",
    // JSON is YAML: what was stored comes back editable as it is
    extra_vars_yaml: Object.keys(extraVars).length ? JSON.stringify(extraVars, null, 2) : "",
    env_vars: Object.entries(environment?.env_vars ?? {}).map(([name, value]) => ({
      id: rowId(),
      name,
      value,
    })),
    secrets: (environment?.secrets ?? []).map((secret) => ({
      id: rowId(),
      name: secret.name,
      target: secret.target,
      key_id: String(secret.key_id),
    })),
  };
}

/**
 * The request body. Rows keep their positions, so `secrets[2].key_id` in an error is the third
 * row; environment variables go as an object, and an error about one lands on the editor.
 */
export function toEnvironmentBody(v: EnvironmentFormValues): EnvironmentCreate {
  const text = v.extra_vars_yaml.trim();
  return {
    name: v.name,
    description: v.description,
    ...(text ? { extra_vars_yaml: v.extra_vars_yaml } : { extra_vars: {} }),
    env_vars: Object.fromEntries(
      v.env_vars.filter((row) => row.name !== "" || row.value !== "").map((r) => [r.name, r.value]),
    ),
    secrets: v.secrets.map((row) => ({
      name: row.name,
      target: row.target,
      key_id: row.key_id === "" ? 0 : Number(row.key_id),
    })),
  };
}
