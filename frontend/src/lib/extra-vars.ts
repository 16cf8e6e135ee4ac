import { CORE_SCHEMA, YAMLException, load } from "js-yaml";

export type ExtraVars = Record<string, unknown>;

export const EXTRA_VARS_HELP = "YAML, JSON, or one key=value per line (values are strings)";

const KEY_VALUE = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/;
const BLANK = /^\s*(#.*)?$/;

/** The 1-based line of the character at `position` in `text`. */
function lineOf(text: string, position: number): number {
  return text.slice(0, position).split("\n").length;
}

function unquoted(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v.at(-1) === v[0]) return v.slice(1, -1);
  return v;
}

/** `name=value` lines (Ansible's `-e key=value`: every value a string); blank and `#` lines
 * are skipped. */
function parseKeyValues(lines: string[]): ExtraVars | string {
  const vars: ExtraVars = {};
  const seen = new Map<string, number>();
  for (const [index, line] of lines.entries()) {
    if (BLANK.test(line)) continue;
    const match = KEY_VALUE.exec(line);
    if (!match) return `line ${index + 1}: expected name=value, like the lines before it`;
    const name = match[1] ?? "";
    const value = match[2] ?? "";
    const earlier = seen.get(name);
    if (earlier !== undefined)
      return `line ${index + 1}: '${name}' is already set on line ${earlier}`;
    seen.set(name, index + 1);
    vars[name] = unquoted(value);
  }
  return vars;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const where = position ? `line ${lineOf(text, Number(position[1]))}: ` : "";
    throw new Error(`${where}not valid JSON (${message.replace(/ in JSON at position.*$/, "")})`);
  }
}

function parseYaml(text: string): unknown {
  try {
    return load(text, { schema: CORE_SCHEMA });
  } catch (error) {
    if (error instanceof YAMLException) {
      // at the end of the text, js-yaml's mark is past the last line
      const line = Math.min(error.mark.line + 1, text.trimEnd().split("\n").length);
      throw new Error(`line ${line}: not valid YAML (${error.reason})`);
    }
    throw error;
  }
}

/** A value JSON can carry (YAML's `.inf`/`.nan` cannot). */
function notJson(value: unknown, path: string): string | null {
  if (typeof value === "number" && !Number.isFinite(value)) return `${path} is not a JSON number`;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const problem = notJson(item, `${path}[${i}]`);
      if (problem) return problem;
    }
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const problem = notJson(item, `${path}.${key}`);
      if (problem) return problem;
    }
  }
  return null;
}

/**
 * Extra vars as typed: a YAML or JSON mapping, or `name=value` lines. The object to send
 * ({} for blank text), or an error message for the field naming the line.
 */
export function parseExtraVars(text: string): ExtraVars | string {
  if (!text.trim()) return {};
  const lines = text.split("\n");
  const first = lines.find((line) => !BLANK.test(line)) ?? "";
  if (KEY_VALUE.test(first)) return parseKeyValues(lines);
  let value: unknown;
  try {
    value = text.trimStart().startsWith("{") ? parseJson(text) : parseYaml(text);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return "must be a mapping of names to values: YAML (name: value), JSON or name=value lines";
  }
  for (const [name, item] of Object.entries(value)) {
    const problem = notJson(item, name);
    if (problem) return problem;
  }
  return value as ExtraVars;
}

/** For a form's `validate`: the error of the text, or null. */
export function extraVarsError(text: string): string | null {
  const parsed = parseExtraVars(text);
  return typeof parsed === "string" ? parsed : null;
}

/** An object as editable text ("" for none): JSON, which is YAML too. */
export function extraVarsText(value: ExtraVars | null | undefined): string {
  return value && Object.keys(value).length > 0 ? JSON.stringify(value, null, 2) : "";
}

/** The extra vars a form's text gives; a mistake goes to `showError` (the field), and null. */
export function extraVarsOf(text: string, showError: (message: string) => void): ExtraVars | null {
  const vars = parseExtraVars(text);
  if (typeof vars === "string") {
    showError(vars);
    return null;
  }
  return vars;
}
