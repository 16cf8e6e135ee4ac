import type { AdhocBody } from "@/features/inventories/api/run-adhoc";

export interface AdhocFormValues {
  module: string;
  args: string;
  limit: string;
  ssh_key_id: string;
  become: boolean;
  become_key_id: string;
  forks: number | "";
}

export const ADHOC_DEFAULTS: AdhocFormValues = {
  module: "",
  args: "",
  limit: "",
  ssh_key_id: "",
  become: false,
  become_key_id: "",
  forks: "",
};

/**
 * The request body of the form: free-form modules (command, shell) send the text as it is;
 * the others a JSON object when the text is one, else NAME=VALUE pairs separated by spaces
 * (a value in quotes may hold spaces). The server checks it all again.
 */
export function toAdhocBody(values: AdhocFormValues, freeForm: readonly string[]): AdhocBody {
  const body: AdhocBody = {
    module: values.module,
    args: freeForm.includes(values.module) ? values.args : parseArgs(values.args),
    limit: values.limit.trim(),
    become: values.become,
    verbosity: 1, // each host's result, its output line by line
    launch_type: "ui",
  };
  if (values.ssh_key_id) body.ssh_key_id = Number(values.ssh_key_id);
  if (values.become && values.become_key_id) body.become_key_id = Number(values.become_key_id);
  if (values.forks !== "") body.forks = values.forks;
  return body;
}

export function parseArgs(text: string): Record<string, unknown> {
  const trimmed = text.trim();
  if (trimmed === "") return {};
  if (trimmed.startsWith("{")) {
    const parsed: unknown = JSON.parse(trimmed);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new Error("the arguments must be a JSON object");
    }
    return parsed as Record<string, unknown>;
  }
  const pairs: Record<string, unknown> = {};
  for (const match of trimmed.matchAll(/([^\s=]+)=("([^"]*)"|'([^']*)'|\S*)/g)) {
    const [, name = "", , doubled, single] = match;
    pairs[name] = doubled ?? single ?? match[2] ?? "";
  }
  if (Object.keys(pairs).length === 0) throw new Error("give NAME=VALUE pairs or a JSON object");
  return pairs;
}
