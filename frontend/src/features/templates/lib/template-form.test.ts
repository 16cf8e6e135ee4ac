import { describe, expect, it } from "vitest";
import { toLaunchValues, toRunCreate } from "@/lib/launch-form";
import { newQuestion, newSource, toQuestion, withType } from "@/features/templates/lib/survey-form";
import {
  exceptionNames,
  exceptionsWarning,
  OVERRIDABLE,
  type Overridable,
  toTemplateBody,
  toTemplateValues,
  SERVER_VENV,
  venvChoices,
} from "@/features/templates/lib/template-form";
import { makeTemplate, question } from "@/testing/make-template";

const template = makeTemplate({
  limit: "db",
  overridable: ["limit", "check_mode"],
  ansible_venv: "/opt/ansible-2.16",
  launch_var_exceptions: ["ansible_become_user"],
  survey: [
    question("pg_version", "Version", "integer", { required: true, default: 16 }),
    question("db_password", "Password", "password"),
    question("dbs", "Databases", "multi_choice", { choices: ["a", "b"] }),
  ],
  permissions: ["view", "run"],
});

describe("survey questions", () => {
  it("sends only the fields a question's type has", () => {
    const text = { ...newQuestion(), variable: "x", label: "X", min: 1, max: 5, default: "" };
    expect(toQuestion(text)).toEqual({
      variable: "x",
      label: "X",
      description: "",
      type: "text",
      required: false,
      min: 1,
      max: 5,
    });
    const choice = withType({ ...text, choices: ["a"] }, "choice");
    expect(toQuestion({ ...choice, choices: ["a", "b"], default: "b" })).toEqual({
      variable: "x",
      label: "X",
      description: "",
      type: "choice",
      required: false,
      choices: ["a", "b"],
      default: "b",
    });
  });

  it("keeps a choice question's source instead of its choices, and drops it off choices", () => {
    const source = newSource("inventory");
    const q = { ...newQuestion(), variable: "h", label: "H", type: "choice" as const, source };
    expect(toQuestion({ ...q, choices: ["stale"] })).toEqual({
      variable: "h",
      label: "H",
      description: "",
      type: "choice",
      required: false,
      source: { kind: "inventory", pattern: "all", select: "hosts", variable: null },
    });
    expect(withType(q, "multi_choice").source).toEqual(source);
    expect(withType(q, "text").source).toBeNull();
  });

  it("drops what no longer fits when the type changes", () => {
    const q = { ...newQuestion(), type: "multi_choice" as const, choices: ["a"], default: ["a"] };
    expect(withType(q, "multi_choice").choices).toEqual(["a"]);
    expect(withType(q, "boolean")).toMatchObject({ choices: [], default: null, min: "" });
  });
});

describe("template form", () => {
  it("round-trips a template, ids as picker values", () => {
    const values = toTemplateValues(template);
    expect(values.inventory_id).toBe("2");
    expect(values.survey[0]).toMatchObject({ variable: "pg_version", default: 16 });
    const body = toTemplateBody(values, {});
    expect(body).toMatchObject({
      repository_id: 1,
      inventory_id: 2,
      environment_id: null,
      forks: null,
    });
    expect(body.survey?.[0]).toEqual(template.survey[0]);
  });

  it("keeps a template's labels, sending what is typed as slugs", () => {
    const stored = toTemplateValues(makeTemplate({ labels: ["db", "prod"] }));
    expect(stored.labels).toEqual(["db", "prod"]);
    expect(toTemplateBody({ ...stored, labels: ["Web", "db"] }, {}).labels).toEqual(["db", "web"]);
    expect(toTemplateBody(toTemplateValues(null), {}).labels).toEqual([]);
  });

  it("installs requirements with the server's Ansible unless the template says otherwise", () => {
    const fresh = toTemplateValues(null);
    expect([fresh.install_requirements, fresh.ansible_venv]).toEqual([true, ""]);
    expect(toTemplateBody(fresh, {})).toMatchObject({
      install_requirements: true,
      ansible_venv: "",
    });
    const stored = toTemplateValues(template);
    expect(toTemplateBody(stored, {})).toMatchObject({
      install_requirements: false,
      ansible_venv: "/opt/ansible-2.16",
    });
  });

  it("keeps the Ansible settings a launch may set, and warns while there are any", () => {
    const stored = toTemplateValues(template);
    expect(stored.launch_var_exceptions).toEqual(["ansible_become_user"]);
    expect(toTemplateBody(stored, {}).launch_var_exceptions).toEqual(["ansible_become_user"]);
    const warning = exceptionsWarning(stored.launch_var_exceptions);
    expect(warning).toContain("ansible_become_user");
    expect(warning).toContain("escalates privileges");
    const fresh = toTemplateValues(null);
    expect(fresh.launch_var_exceptions).toEqual([]);
    expect(exceptionsWarning(fresh.launch_var_exceptions)).toBeNull();
    expect(toTemplateBody(fresh, {}).launch_var_exceptions).toEqual([]);
    // typed names are trimmed; blanks and repeats are dropped
    expect(exceptionNames([" ansible_port ", "", "ansible_port", "hostvars"])).toEqual([
      "ansible_port",
      "hostvars",
    ]);
  });

  it("offers each Ansible with its version, and disables one with a problem, saying it", () => {
    expect(
      venvChoices([
        { path: "", ansible_version: "2.17.1", problem: null },
        { path: "/opt/old", ansible_version: "", problem: "bin/ansible-galaxy is missing" },
      ]),
    ).toEqual([
      {
        value: SERVER_VENV,
        label: "The server's own (ansible-core 2.17.1)",
        disabled: false,
        problem: null,
      },
      {
        value: "/opt/old",
        label: "/opt/old (version unknown)",
        disabled: true,
        problem: "bin/ansible-galaxy is missing",
      },
    ]);
  });
});

describe("launch body", () => {
  it("sends the allowed overrides only, and the answers given", () => {
    const values = toLaunchValues(template);
    expect(values.survey).toEqual({ pg_version: 16, db_password: "", dbs: [] });
    values.limit = "db1";
    values.tags = "ignored: not overridable";
    values.survey.db_password = "s3cret";
    expect(toRunCreate(template, values, { a: 1 })).toEqual({
      template_id: 3,
      launch_type: "ui",
      limit: "db1",
      check_mode: false,
      survey: { pg_version: 16, db_password: "s3cret" },
    });
  });

  it("sends a git ref only when the template lets a launch choose one", () => {
    const values = { ...toLaunchValues(template), ref: " release-2.1 " };
    expect(toRunCreate(template, values, {})).not.toHaveProperty("ref"); // not allowed
    const allowing = { ...template, overridable: [...template.overridable, "ref" as const] };
    expect(toRunCreate(allowing, values, {}).ref).toBe("release-2.1");
    // blank: the repository's own ref, nothing sent
    expect(toRunCreate(allowing, { ...values, ref: "  " }, {})).not.toHaveProperty("ref");
  });
});

describe("what a launch may change", () => {
  it("offers the git ref the API lets a launch override, and saves it", () => {
    expect(OVERRIDABLE.map((o) => o.value)).toContain("ref");
    const values = {
      ...toTemplateValues(template),
      overridable: ["limit", "ref"] as Overridable[],
    };
    expect(toTemplateBody(values, {}).overridable).toEqual(["limit", "ref"]);
  });
});
