import type { Schemas } from "@/api/client";
import { type Checked, type TargetValues, toTargetValues, withTarget } from "@/lib/trigger-target";

type Webhook = Schemas["WebhookRead"];
type WebhookCreate = Schemas["WebhookCreate"];
type WebhookTargetCreate = Schemas["WebhookTargetCreate"];
type Matcher = Schemas["Matcher"];
type Scalar = string | boolean | number | null;

export const AUTH_SCHEMES: { value: Schemas["WebhookAuth"]; label: string }[] = [
  { value: "github", label: "GitHub (X-Hub-Signature-256)" },
  { value: "gitlab", label: "GitLab (X-Gitlab-Token)" },
  { value: "hmac", label: "HMAC-SHA256 (X-Steward-Signature-256)" },
  { value: "bearer", label: "Bearer secret (Authorization)" },
];

/** What the sender is told to do, by scheme: where the secret goes. */
export const SENDER_SETUP: Record<Schemas["WebhookAuth"], string> = {
  github:
    "In the repository's Settings → Webhooks: Payload URL as above, content type application/json, the secret key's value as Secret.",
  gitlab:
    "In the project's Settings → Webhooks: URL as above, the secret key's value as Secret token.",
  hmac: "Send X-Steward-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the secret>, and X-Steward-Delivery: <a unique id> against replays.",
  bearer:
    "Send Authorization: Bearer <the secret key's value>; a unique X-Steward-Delivery id guards against replays.",
};

export const MATCH_OPS: { value: Schemas["MatchOp"]; label: string }[] = [
  { value: "equals", label: "equals" },
  { value: "one_of", label: "is one of" },
  { value: "glob", label: "matches pattern" },
  { value: "exists", label: "exists" },
];

export interface MatcherRow {
  id: string;
  source: Schemas["MatchSource"];
  path: string;
  op: Schemas["MatchOp"];
  /** equals, glob: one text; one_of: `values` */
  value: string;
  values: string[];
}

export interface ExtractorRow {
  id: string;
  variable: string;
  path: string;
}

/** Field names as in the body, so the server's errors (`matchers.1`, `ref_from`) find them. */
/** A workflow target takes no extractors nor ref: its nodes carry their own launch values. */
export interface WebhookFormValues extends TargetValues {
  name: string;
  description: string;
  auth: Schemas["WebhookAuth"];
  secret_key_id: string;
  enabled: boolean;
  matchers: MatcherRow[];
  extractors: ExtractorRow[];
  ref_from: string;
  rate_limit_per_minute: number | "";
}

let rows = 0;
export function rowId(): string {
  rows += 1;
  return `webhook-row-${rows}`;
}

const JSON_SCALAR = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?|".*")$/s;

/**
 * What a body matcher's text means: a JSON literal (true, 42, null, "42" quoted) is that value,
 * anything else is the text itself; so `refs/heads/main` needs no quotes and `42` is a number.
 */
export function parseScalar(text: string): Scalar {
  if (JSON_SCALAR.test(text.trim())) {
    try {
      return JSON.parse(text.trim()) as Scalar;
    } catch {
      return text;
    }
  }
  return text;
}

/** The text that parseScalar reads back as `value` (a string that looks like JSON is quoted). */
export function scalarText(value: Scalar): string {
  if (typeof value === "string")
    return parseScalar(value) === value ? value : JSON.stringify(value);
  return JSON.stringify(value);
}

export function newMatcher(): MatcherRow {
  return { id: rowId(), source: "body", path: "", op: "equals", value: "", values: [] };
}

function toMatcherRow(m: Matcher): MatcherRow {
  const list = Array.isArray(m.value) ? m.value : [];
  const one = Array.isArray(m.value) ? null : (m.value ?? null);
  const text = (v: Scalar) => (m.source === "header" ? String(v ?? "") : scalarText(v));
  return {
    id: rowId(),
    source: m.source,
    path: m.path,
    op: m.op,
    value: m.op === "exists" || Array.isArray(m.value) ? "" : text(one),
    values: list.map(text),
  };
}

export function toMatcher(row: MatcherRow): Matcher {
  const read = (text: string): Scalar => (row.source === "header" ? text : parseScalar(text));
  const matcher: Matcher = { source: row.source, path: row.path.trim(), op: row.op };
  if (row.op === "one_of") matcher.value = row.values.map(read);
  else if (row.op === "glob") matcher.value = row.value;
  else if (row.op === "equals") matcher.value = read(row.value);
  else matcher.value = null;
  return matcher;
}

export function toWebhookValues(
  webhook: Webhook | null,
  templateId: number | null,
): WebhookFormValues {
  return {
    ...toTargetValues(webhook, templateId),
    name: webhook?.name ?? "",
    description: webhook?.description ?? "",
    auth: webhook?.auth ?? "github",
    secret_key_id: webhook ? String(webhook.secret_key_id) : "",
    enabled: webhook?.enabled ?? true,
    matchers: (webhook?.matchers ?? []).map(toMatcherRow),
    extractors: Object.entries(webhook?.extractors ?? {}).map(([variable, path]) => ({
      id: rowId(),
      variable,
      path,
    })),
    ref_from: webhook?.ref_from ?? "",
    rate_limit_per_minute: webhook?.rate_limit_per_minute ?? 30,
  };
}

/**
 * The body: every field (matchers and extractors replace the stored sets); blank rows dropped.
 * A workflow's webhook sends no extractors nor ref: its nodes carry their own launch values.
 */
export function toWebhookBody(v: WebhookFormValues): WebhookCreate {
  const body: WebhookCreate = {
    name: v.name,
    description: v.description,
    auth: v.auth,
    // 0 is no key: the server names the field in its answer
    secret_key_id: v.secret_key_id === "" ? 0 : Number(v.secret_key_id),
    enabled: v.enabled,
    matchers: v.matchers.map(toMatcher),
    extractors: Object.fromEntries(
      v.extractors
        .filter((row) => row.variable.trim() !== "" || row.path.trim() !== "")
        .map((row) => [row.variable.trim(), row.path.trim()]),
    ),
    ref_from: v.ref_from.trim(),
    rate_limit_per_minute: v.rate_limit_per_minute === "" ? 30 : v.rate_limit_per_minute,
  };
  return v.target_kind === "workflow" ? { ...body, extractors: {}, ref_from: "" } : body;
}

/** A new webhook's body and its one target; an error on the picker when none is picked. */
export function toNewWebhookBody(v: WebhookFormValues): Checked<WebhookTargetCreate> {
  return withTarget(v, { body: toWebhookBody(v) });
}
