import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/client";
import { dependsOn, hasSources, sourceAnswers, sourcedOptionsOf } from "@/lib/survey-options";

type Question = Schemas["Question"];

const q = (variable: string, source?: Question["source"]): Question => ({
  variable,
  label: variable,
  description: "",
  required: false,
  type: source ? "choice" : "text",
  source,
});

const SURVEY = [
  q("env"),
  q("group", { kind: "inventory", pattern: "{answer.env}:&db", select: "groups" }),
  q("db", {
    kind: "url",
    url: "https://cmdb/dbs?g={answer.group}&e={answer.env}",
    path: "",
    timeout_seconds: 5,
  }),
  q("table", {
    kind: "script",
    path: "bin/tables",
    arguments: ["{answer.db}", "x"],
    timeout_seconds: 5,
  }),
  q("note"),
];

describe("survey options", () => {
  it("reads the earlier answers each source names", () => {
    expect(SURVEY.map(dependsOn)).toEqual([[], ["env"], ["group", "env"], ["db"], []]);
    expect(hasSources(SURVEY)).toBe(true);
    expect(hasSources([q("a")])).toBe(false);
  });

  it("asks again only when a named answer changes", () => {
    const answers = { env: "prod", group: "", db: "orders", note: "typed", table: "t" };
    expect(sourceAnswers(SURVEY, answers)).toEqual({ db: "orders", env: "prod" });
  });

  it("gives each sourced question its options, its source's reason, or the request's failure", () => {
    const read = [
      { variable: "group", choices: ["db", "web"], error: null, depends_on: ["env"] },
      { variable: "db", choices: [], error: "needs an answer to 'group' first", depends_on: [] },
    ];
    expect(sourcedOptionsOf(SURVEY, read, null, true)).toEqual({
      group: { choices: ["db", "web"], error: null, pending: true },
      db: { choices: [], error: "needs an answer to 'group' first", pending: true },
      table: { choices: [], error: null, pending: true },
    });
    // the request failed (a 403, a 429): every sourced field says why
    const failed = sourcedOptionsOf(SURVEY, undefined, "too many requests", false);
    expect(Object.keys(failed)).toEqual(["group", "db", "table"]);
    expect(failed["db"]).toEqual({ choices: [], error: "too many requests", pending: false });
    expect(sourcedOptionsOf([q("a")], undefined, null, false)).toEqual({});
  });
});
