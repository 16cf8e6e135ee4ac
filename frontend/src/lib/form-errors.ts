import { type ReactNode, useState } from "react";
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

/** `secrets[0].key_id` (the services' spelling) as `secrets.0.key_id` (pydantic's and the form's). */
function normalizeField(field: string): string {
  return field.replace(/\[(\d+)\]/g, ".$1").replace(/^\./, "");
}

/**
 * The deepest form path that holds `field`, and what is left of it: `env_vars.HOME` on a form
 * whose `env_vars` is one editor is shown on that editor as "HOME: …".
 */
function placeOf(values: object, field: string): { path: string; rest: string } | null {
  const parts = field.split(".");
  for (let n = parts.length; n > 0; n--) {
    const path = parts.slice(0, n).join(".");
    if (hasPath(values, path)) return { path, rest: parts.slice(n).join(".") };
  }
  return null;
}

export interface ApplyOptions {
  /**
   * The tag of a tagged-union body (a key's `kind`): pydantic puts it first in the error's
   * location (`ssh.private_key`), and the form's path is `private_key`.
   */
  unionTag?: string;
  /** top-level server field -> form field, for a form that keeps a field under another name */
  aliases?: Readonly<Record<string, string>>;
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
    const tagged = normalizeField(fieldError.field);
    const untagged = tag && tagged.startsWith(tag) ? tagged.slice(tag.length) : tagged;
    const [root = "", ...tail] = untagged.split(".");
    const field = [options.aliases?.[root] ?? root, ...tail].join(".");
    const place = placeOf(values, field);
    if (place === null) {
      unplaced.push(`${field}: ${message}`);
      continue;
    }
    const text = place.rest ? `${place.rest}: ${message}` : message;
    byField.set(place.path, [...(byField.get(place.path) ?? []), text]);
  }
  for (const [field, messages] of byField) form.setFieldError(field, messages.join("; "));
  if (unplaced.length > 0) return unplaced.join("; ");
  return byField.size > 0 ? null : error.detail;
}

/**
 * A form's server errors: `show` puts a failed submit's field errors on the form's fields
 * (applyServerErrors) and keeps the rest as `message`, for a FormError; `clear` drops it.
 * Options given to `show` replace those given here.
 */
export function useServerErrors(form: ServerErrorTarget, options?: ApplyOptions) {
  const [message, setMessage] = useState<string | null>(null);
  return {
    message,
    clear: () => setMessage(null),
    show: (error: unknown, showOptions = options) =>
      setMessage(applyServerErrors(form, error, showOptions)),
  };
}
