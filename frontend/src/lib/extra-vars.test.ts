import { describe, expect, it } from "vitest";
import { extraVarsError, extraVarsOf, extraVarsText, parseExtraVars } from "@/lib/extra-vars";

describe("extra vars as typed", () => {
  it("reads YAML, JSON and name=value lines alike", () => {
    expect(parseExtraVars("pg_version: 16\nhosts: [a, b]\nnested: {x: true}\n")).toEqual({
      pg_version: 16,
      hosts: ["a", "b"],
      nested: { x: true },
    });
    expect(parseExtraVars('{\n  "pg_version": 16,\n  "name": "db"\n}')).toEqual({
      pg_version: 16,
      name: "db",
    });
    expect(parseExtraVars("# comment\npg_version=16\n\nname = 'my db'\nempty=\n")).toEqual({
      pg_version: "16",
      name: "my db",
      empty: "",
    });
    expect(parseExtraVars("url=http://x/?a=b:c")).toEqual({ url: "http://x/?a=b:c" });
    expect(parseExtraVars("   \n")).toEqual({});
  });

  it("keeps YAML dates and yes/no as strings (only JSON types are sent)", () => {
    expect(parseExtraVars("when: 2026-11-24\nflag: yes\n")).toEqual({
      when: "2026-11-24",
      flag: "yes",
    });
  });

  it("names the line of a mistake", () => {
    expect(parseExtraVars("a: 1\nb: [1, 2\nc: 3\n")).toMatch(/^line \d: not valid YAML/);
    expect(parseExtraVars("a: 1\n  b: 2\n")).toMatch(/^line 2: not valid YAML/);
    expect(parseExtraVars('{\n  "a": 1,\n  "b": 2,\n}')).toMatch(/^line 4: not valid JSON/);
    expect(parseExtraVars("a=1\nb: 2\n")).toBe(
      "line 2: expected name=value, like the lines before it",
    );
    expect(parseExtraVars("a=1\nb=2\na=3")).toBe("line 3: 'a' is already set on line 1");
    expect(parseExtraVars("a: 1\na: 2\n")).toMatch(/^line 2: not valid YAML \(duplicated/);
  });

  it("refuses what is not a mapping, and numbers JSON cannot carry", () => {
    for (const text of ["- a\n- b\n", "just text", "42", "[1]"]) {
      expect(parseExtraVars(text)).toMatch(/^must be a mapping of names to values/);
    }
    expect(parseExtraVars("x: .inf\n")).toBe("x is not a JSON number");
    expect(parseExtraVars("x: {y: [1, .nan]}\n")).toBe("x.y[1] is not a JSON number");
  });

  it("validates for a form and shows stored values as editable text", () => {
    expect(extraVarsError("a: [")).toMatch(/^line 1/);
    expect(extraVarsError("a: 1")).toBeNull();
    expect(extraVarsText({})).toBe("");
    const text = extraVarsText({ a: 1, b: ["x"] });
    expect(parseExtraVars(text)).toEqual({ a: 1, b: ["x"] });
  });
});

describe("extraVarsOf", () => {
  it("gives the vars of good text and says nothing", () => {
    const said: string[] = [];
    expect(extraVarsOf("a: 1", (m) => said.push(m))).toEqual({ a: 1 });
    expect(said).toEqual([]);
  });

  it("says the mistake of bad text and gives null", () => {
    const said: string[] = [];
    expect(extraVarsOf("a=1\nnot a pair", (m) => said.push(m))).toBeNull();
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/line 2/);
  });
});
