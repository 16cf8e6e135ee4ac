import { describe, expect, it } from "vitest";
import type { Schemas } from "@/api/client";
import { dependsOn, hasSources, sourceAnswers } from "@/lib/survey-options";

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
});
