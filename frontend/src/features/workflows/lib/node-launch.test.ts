import { describe, expect, it } from "vitest";
import { ApiError } from "@/api/errors";
import {
  MASK,
  describeLaunch,
  indexNodeErrors,
  keptSecretsOf,
  nodeLaunchErrors,
  toNodeLaunch,
  toNodeLaunchValues,
} from "@/features/workflows/lib/node-launch";
import { makeTemplate, question } from "@/testing/make-template";

const template = makeTemplate({
  id: 7,
  limit: "all-web",
  overridable: ["limit", "extra_vars", "verbosity"],
  survey: [
    question("release", "Release", "text", { required: true }),
    question("db_password", "DB", "password"),
    question("count", "Count", "integer", { default: 2 }),
  ],
});

describe("a node's launch values", () => {
  it("opens on the saved values over the template's, a saved secret blank and kept", () => {
    const saved = { limit: "web1", survey: { release: "v1", db_password: MASK } };
    expect(keptSecretsOf(template, saved)).toEqual(["db_password"]);
    const values = toNodeLaunchValues(template, saved);
    expect(values.limit).toBe("web1");
    expect(values.verbosity).toBe("0");
    expect(values.survey).toEqual({ release: "v1", db_password: "", count: 2 });
    expect(toNodeLaunchValues(template, null).limit).toBe("all-web");
    expect(keptSecretsOf(template, null)).toEqual([]);
  });

  it("keeps only what differs from the template, and a kept secret as ********", () => {
    const saved = { limit: "web1", survey: { release: "v1", db_password: MASK } };
    const values = toNodeLaunchValues(template, saved);
    // untouched: the same values back, the secret kept
    expect(toNodeLaunch(template, values, {}, saved)).toEqual({
      limit: "web1",
      survey: { release: "v1", db_password: MASK },
    });
    // the template's own limit and the question's default follow the template; a new secret
    // replaces the kept one; extra vars and a verbosity are sent
    const edited = {
      ...values,
      limit: "all-web",
      verbosity: "2",
      survey: { release: "v2", db_password: "new-secret", count: 2 },
    };
    expect(toNodeLaunch(template, edited, { who: "ops" }, saved)).toEqual({
      verbosity: 2,
      extra_vars: { who: "ops" },
      survey: { release: "v2", db_password: "new-secret" },
    });
  });

  it("is null when nothing is set, and keeps what the dialog does not edit", () => {
    expect(toNodeLaunch(template, toNodeLaunchValues(template, null), {}, null)).toBeNull();
    // `ref` has no field in the dialog: kept; `tags` the template no longer allows: dropped
    const saved = { ref: "v1.2", tags: "db" };
    const values = toNodeLaunchValues(template, saved);
    expect(toNodeLaunch(template, values, {}, saved)).toEqual({ ref: "v1.2" });
  });

  it("puts a save's errors on the node, by index, relative to its launch values", () => {
    const error = new ApiError(422, "Unprocessable", "invalid", [
      { field: "nodes.ship.launch.limit", message: "bad pattern" },
      { field: "nodes.0.launch.survey.release", message: "is required" },
      { field: "nodes.0.launch", message: "too many answers" },
      { field: "nodes.0.template_id", message: "not found" },
      { field: "name", message: "taken" },
    ]);
    const indexed = indexNodeErrors(error, ["gate", "ship"]) as ApiError;
    expect(indexed.fieldErrors.map((e) => e.field)).toEqual([
      "nodes.1.launch.limit",
      "nodes.0.launch.survey.release",
      "nodes.0.launch",
      "nodes.0.template_id",
      "name",
    ]);
    expect(Object.fromEntries(nodeLaunchErrors(indexed))).toEqual({
      0: [
        { field: "survey.release", message: "is required" },
        { field: "", message: "too many answers" },
      ],
      1: [{ field: "limit", message: "bad pattern" }],
    });
    expect(nodeLaunchErrors(new Error("offline")).size).toBe(0);
    expect(indexNodeErrors("x", [])).toBe("x");
  });

  it("says what a node sets", () => {
    expect(describeLaunch(null)).toEqual([]);
    expect(
      describeLaunch({
        limit: "web1",
        skip_tags: "slow",
        survey: { a: 1, b: MASK },
        extra_vars: {},
      }),
    ).toEqual(["limit web1", "skip tags slow", "answers: a, b"]);
  });
});
