import type { ReactNode } from "react";
import { isApiError } from "@/api/errors";

/** The part of a Mantine form (`useForm`) that server errors are written into. */
export interface ServerErrorTarget {
  getValues(): object;
  setFieldError(path: string, error: ReactNode): void;
}

function hasPath(values: object, path: string): boolean {
  let node: unknown = values;
  for (const part of path.split(".")) {
    if (typeof node !== "object" || node === null || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return true;
}

interface ApplyOptions {
  /**
   * The tag of a tagged-union body (a key's `kind`): pydantic puts it first in the error's
   * location (`ssh.private_key`), and the form's path is `private_key`.
   */
  unionTag?: string;
}

/**
 * Show a failed submit on the form: each server field error goes next to its field (the
 * problem+json `errors[].field` is the form path, because form values are the request body).
 * Returns what is left for the form as a whole (errors about fields the form doesn't have,
 * or the problem's detail), or null when every error found its field.
 */
export function applyServerErrors(
  form: ServerErrorTarget,
  error: unknown,
  options: ApplyOptions = {},
): string | null {
  if (!isApiError(error)) {
    return error instanceof Error ? error.message : "Something went wrong; try again.";
  }
  const values = form.getValues();
  const tag = options.unionTag === undefined ? null : `${options.unionTag}.`;
  const byField = new Map<string, string[]>();
  const unplaced: string[] = [];
  for (const fieldError of error.fieldErrors) {
    const { message } = fieldError;
    const field =
      tag && fieldError.field.startsWith(tag)
        ? fieldError.field.slice(tag.length)
        : fieldError.field;
    if (hasPath(values, field)) byField.set(field, [...(byField.get(field) ?? []), message]);
    else unplaced.push(`${field}: ${message}`);
  }
  for (const [field, messages] of byField) form.setFieldError(field, messages.join("; "));
  if (unplaced.length > 0) return unplaced.join("; ");
  return byField.size > 0 ? null : error.detail;
}
