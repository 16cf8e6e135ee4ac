import { describe, expect, it } from "vitest";
import {
  toEnvironmentBody,
  toEnvironmentValues,
} from "@/features/environments/lib/environment-form";

describe("environment form", () => {
  it("shows stored extra vars as editable text, and sends the text back as YAML", () => {
    const values = toEnvironmentValues({
      id: 1,
      project_id: 1,
      name: "prod",
      description: "",
      extra_vars: { pg_version: 16 },
      env_vars: { PGHOST: "db1" },
      secrets: [{ name: "PGPASSWORD", target: "env", key_id: 7, key_name: "pg" }],
      created_at: "",
      updated_at: "",
    });
    expect(values.extra_vars_yaml).toBe('{\n  "pg_version": 16\n}');
    const body = toEnvironmentBody({ ...values, extra_vars_yaml: "pg_version: 17\n" });
    expect(body).toEqual({
      name: "prod",
      description: "",
      extra_vars_yaml: "pg_version: 17\n",
      env_vars: { PGHOST: "db1" },
      secrets: [{ name: "PGPASSWORD", target: "env", key_id: 7 }],
    });
  });

  it("clears extra vars with empty text and drops blank variable rows", () => {
    const values = toEnvironmentValues(null);
    values.env_vars.push({ id: "a", name: "", value: "" });
    expect(toEnvironmentBody(values)).toEqual({
      name: "",
      description: "",
      extra_vars: {},
      env_vars: {},
      secrets: [],
    });
  });
});
