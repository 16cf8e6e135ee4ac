import type { Schemas } from "@/api/client";

type Question = Schemas["Question"];
export type QuestionOptions = Schemas["QuestionOptions"];

/** A sourced question's options as a launch form shows them: the server's, or why none. */
export interface SourcedOptions {
  choices: string[];
  error: string | null;
  pending: boolean;
}

const PLACEHOLDER = /\{answer\.([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The earlier answers a question's source names (`{answer.<variable>}`), as the server reads
 * them (templates/options/sources.depends_on). */
export function dependsOn(question: Question): string[] {
  const source = question.source;
  if (!source) return [];
  const text =
    source.kind === "inventory"
      ? (source.pattern ?? "")
      : source.kind === "url"
        ? source.url
        : (source.arguments ?? []).join(" ");
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ""))].filter(Boolean);
}

/** The answers the sources read: only those some source names, so that the options are asked
 * again when one of them changes (and not on every key typed elsewhere). */
export function sourceAnswers(
  questions: readonly Question[],
  answers: Record<string, unknown>,
): Record<string, unknown> {
  const named = new Set(questions.flatMap(dependsOn));
  const found: Record<string, unknown> = {};
  for (const name of [...named].sort()) {
    const value = answers[name];
    if (value !== undefined && value !== null && value !== "") found[name] = value;
  }
  return found;
}

export const hasSources = (questions: readonly Question[]) =>
  questions.some((question) => question.source);

/** Each sourced question's options from the server's answer (`read`, absent while the first
 * is asked or when the request failed with `failure`): a question the answer does not name
 * (the request failed) shows the failure on its field. */
export function sourcedOptionsOf(
  questions: readonly Question[],
  read: readonly QuestionOptions[] | undefined,
  failure: string | null,
  pending: boolean,
): Record<string, SourcedOptions> {
  const found: Record<string, SourcedOptions> = {};
  for (const question of questions) {
    if (!question.source) continue;
    const options = read?.find((each) => each.variable === question.variable);
    found[question.variable] = {
      choices: options?.choices ?? [],
      error: options ? options.error : failure,
      pending,
    };
  }
  return found;
}
