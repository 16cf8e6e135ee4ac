import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/client";
import { toRelaunchBody, toRelaunchValues } from "@/features/templates/lib/launch-form";
import { parseExtraVars } from "@/lib/extra-vars";
import { makeTemplate, question } from "@/testing/make-template";

const template = makeTemplate({
  overridable: ["limit", "extra_vars", "check_mode"],
  survey: [
    question("port", "Port", "integer", { required: true }),
    question("env", "Env", "text"),
    question("pw", "Pw", "password", { required: true }),
  ],
});

const earlier: Schemas["RelaunchValues"] = {
  launch: {
    limit: "db1",
    check_mode: true,
    extra_vars: { who: "first" },
    survey: { port: 5432, env: "prod", pw: "********" },
  },
  kept_secrets: ["pw"],
  overridable: ["limit", "extra_vars", "check_mode"],
  failed_hosts: ["db1"],
  failed_host_count: 1,
};

describe("relaunch form", () => {
  it("starts from the run's values; a kept secret shows blank", () => {
    const values = toRelaunchValues(template, earlier);
    expect(values.limit).toBe("db1");
    expect(values.check_mode).toBe(true);
    expect(parseExtraVars(values.extra_vars)).toEqual({ who: "first" });
    expect(values.survey).toEqual({ port: 5432, env: "prod", pw: "" });
  });

  it("sends the values shown, leaves a blank kept secret out and the limit to failed hosts", () => {
    const values = toRelaunchValues(template, earlier);
    values.survey.env = "";
    const body = toRelaunchBody(template, values, { who: "second" }, "all", ["pw"]);
    expect(body).toEqual({
      hosts: "all",
      limit: "db1",
      check_mode: true,
      extra_vars: { who: "second" },
      survey: { port: 5432, env: "" },
    });
    const failed = toRelaunchBody(template, values, {}, "failed", ["pw"]);
    expect(failed.limit).toBeUndefined();
    expect(failed.extra_vars).toEqual({});
    values.survey.pw = "new secret";
    expect(toRelaunchBody(template, values, {}, "all", ["pw"]).survey?.pw).toBe("new secret");
  });
});
