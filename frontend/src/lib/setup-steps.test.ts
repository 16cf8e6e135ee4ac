import { describe, expect, it } from "vitest";
import { countsFor, missingFirst } from "@/lib/setup-steps";

const things = (steps: ReturnType<typeof missingFirst>) =>
  steps.map((s) => `${s.thing}${s.optional ? "?" : ""}`);

describe("missingFirst", () => {
  it("an empty project: a template needs a key (maybe), a repository, an inventory, in order", () => {
    const empty = { keys: 0, repositories: 0, inventories: 0, templates: 0 };
    expect(things(missingFirst("templates", empty))).toEqual(["key?", "repository", "inventory"]);
  });

  it("says only what is missing", () => {
    expect(things(missingFirst("templates", { keys: 0, repositories: 1, inventories: 0 }))).toEqual(
      ["key?", "inventory"],
    );
    expect(things(missingFirst("templates", { keys: 2, repositories: 0, inventories: 1 }))).toEqual(
      ["repository"],
    );
  });

  it("no key step once the repository and the inventory exist (they are where a key is asked)", () => {
    expect(missingFirst("templates", { keys: 0, repositories: 1, inventories: 1 })).toEqual([]);
  });

  it("says nothing of what it does not know (not loaded, or not listable by the caller)", () => {
    expect(missingFirst("templates", {})).toEqual([]);
    expect(things(missingFirst("templates", { repositories: 0 }))).toEqual(["repository"]);
    expect(missingFirst("schedules", { templates: undefined })).toEqual([]);
  });

  it("the other sections: their own prerequisite, only while missing", () => {
    expect(things(missingFirst("repositories", { keys: 0 }))).toEqual(["key?"]);
    expect(missingFirst("repositories", { keys: 1 })).toEqual([]);
    expect(things(missingFirst("inventories", { repositories: 0 }))).toEqual(["repository?"]);
    expect(missingFirst("inventories", { repositories: 3 })).toEqual([]);
    for (const section of ["schedules", "webhooks", "workflows"] as const) {
      expect(things(missingFirst(section, { templates: 0 }))).toEqual(["template"]);
      expect(missingFirst(section, { templates: 1 })).toEqual([]);
    }
  });

  it("asks only for the counts it reads", () => {
    expect(countsFor("templates")).toEqual(["keys", "repositories", "inventories"]);
    expect(countsFor("webhooks")).toEqual(["templates"]);
  });
});
