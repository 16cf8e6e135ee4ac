import type { Schemas } from "@/api/client";

type Destination = Schemas["DestinationRead"];
type Kind = Schemas["DestinationKind"];
export type DestinationCreate =
  | Schemas["EmailDestinationCreate"]
  | Schemas["SlackDestinationCreate"]
  | Schemas["TeamsDestinationCreate"]
  | Schemas["WebhookDestinationCreate"];

export const KINDS: { value: Kind; label: string }[] = [
  { value: "email", label: "Email (SMTP)" },
  { value: "slack", label: "Slack" },
  { value: "teams", label: "Microsoft Teams" },
  { value: "webhook", label: "JSON webhook" },
];

/** What the secret key of each kind holds, and which key kinds may hold it. */
export const SECRET_OF: Record<
  Kind,
  { label: string; description: string; kinds: Schemas["KeyKind"][] }
> = {
  email: {
    label: "SMTP password",
    description:
      "A login/password key (its username is used when Username is empty) or a secret key; none for a server without login",
    kinds: ["login_password", "secret"],
  },
  slack: {
    label: "Incoming-webhook URL",
    description: "A secret key holding the Slack incoming-webhook URL (the URL is the credential)",
    kinds: ["secret"],
  },
  teams: {
    label: "Incoming-webhook URL",
    description: "A secret key holding the Teams (Workflows) incoming-webhook URL",
    kinds: ["secret"],
  },
  webhook: {
    label: "Signing secret",
    description:
      "A secret key: each post carries X-Steward-Signature-256, the HMAC-SHA256 of the body with it",
    kinds: ["secret"],
  },
};

export const SECURITY: { value: Schemas["SmtpSecurity"]; label: string }[] = [
  { value: "starttls", label: "STARTTLS (587)" },
  { value: "tls", label: "TLS (465)" },
  { value: "none", label: "None (no password)" },
];

export interface HeaderRow {
  id: string;
  name: string;
  value: string;
}

/** Named like the body (`config.host`, `secret_key_id`), so the server's errors find the fields. */
export interface DestinationFormValues {
  kind: Kind;
  name: string;
  description: string;
  enabled: boolean;
  secret_key_id: string;
  config: {
    host: string;
    port: number | "";
    security: Schemas["SmtpSecurity"];
    username: string;
    from_address: string;
    to: string[];
    verify_tls: boolean;
    url: string;
    headers: HeaderRow[];
  };
}

let rows = 0;
export function headerRow(name = "", value = ""): HeaderRow {
  rows += 1;
  return { id: `header-${rows}`, name, value };
}

const text = (value: unknown, fallback = "") => (typeof value === "string" ? value : fallback);

export function toDestinationValues(d: Destination | null): DestinationFormValues {
  const c = d?.config ?? {};
  const headers = typeof c.headers === "object" && c.headers !== null ? c.headers : {};
  return {
    kind: d?.kind ?? "email",
    name: d?.name ?? "",
    description: d?.description ?? "",
    enabled: d?.enabled ?? true,
    secret_key_id: d?.secret_key_id == null ? "" : String(d.secret_key_id),
    config: {
      host: text(c.host),
      port: typeof c.port === "number" ? c.port : 587,
      security: (text(c.security, "starttls") as Schemas["SmtpSecurity"]) || "starttls",
      username: text(c.username),
      from_address: text(c.from_address),
      to: Array.isArray(c.to) ? c.to.map(String) : [],
      verify_tls: typeof c.verify_tls === "boolean" ? c.verify_tls : true,
      url: text(c.url),
      headers: Object.entries(headers as Record<string, unknown>).map(([name, value]) =>
        headerRow(name, String(value)),
      ),
    },
  };
}

/** The configuration of the form's kind: only that kind's fields. */
export function toConfig(v: DestinationFormValues): Record<string, unknown> {
  const c = v.config;
  switch (v.kind) {
    case "email":
      return {
        host: c.host.trim(),
        port: c.port === "" ? 587 : c.port,
        security: c.security,
        username: c.username,
        from_address: c.from_address.trim(),
        to: c.to,
        verify_tls: c.verify_tls,
      };
    case "webhook":
      return {
        url: c.url.trim(),
        headers: Object.fromEntries(
          c.headers.filter((h) => h.name.trim()).map((h) => [h.name.trim(), h.value]),
        ),
      };
    default:
      return {};
  }
}

const keyId = (value: string) => (value === "" ? null : Number(value));

export function toDestinationCreate(v: DestinationFormValues): DestinationCreate {
  const common = { name: v.name, description: v.description, enabled: v.enabled };
  const config = toConfig(v);
  switch (v.kind) {
    case "email":
      return {
        ...common,
        kind: "email",
        config: config as Schemas["EmailConfig"],
        secret_key_id: keyId(v.secret_key_id),
      };
    case "webhook":
      return {
        ...common,
        kind: "webhook",
        config: config as Schemas["WebhookConfig"],
        // 0 is no key: the server names the field in its answer
        secret_key_id: keyId(v.secret_key_id) ?? 0,
      };
    default:
      return { ...common, kind: v.kind, secret_key_id: keyId(v.secret_key_id) ?? 0 };
  }
}

/** A change: every field; an email destination without a key loses its password. */
export function toDestinationUpdate(v: DestinationFormValues): Schemas["DestinationUpdate"] {
  const update: Schemas["DestinationUpdate"] = {
    name: v.name,
    description: v.description,
    enabled: v.enabled,
    config: toConfig(v),
  };
  const key = keyId(v.secret_key_id);
  if (key !== null || v.kind === "email") update.secret_key_id = key;
  return update;
}

/** Where it sends, in a few words: the recipients, the URL's host, or the key's name. */
export function destinationTarget(d: Destination): string {
  const c = d.config;
  if (d.kind === "email") {
    const to = Array.isArray(c.to) ? c.to.join(", ") : "";
    return `${to} via ${text(c.host)}`;
  }
  if (d.kind === "webhook") return text(c.url);
  return d.secret_key_name ? `URL in key “${d.secret_key_name}”` : "no key";
}
