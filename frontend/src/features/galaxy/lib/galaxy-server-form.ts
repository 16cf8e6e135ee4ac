import type { Schemas } from "@/api/client";

type GalaxyServer = Schemas["GalaxyServerRead"];
type GalaxyServerCreate = Schemas["GalaxyServerCreate"];
type Key = Pick<Schemas["KeyRead"], "id" | "name" | "kind">;

// ansible-galaxy takes a server from ANSIBLE_GALAXY_SERVER_<NAME>_URL: the server's rule
export const SERVER_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;

// a token (secret) or a login and password: what ansible-galaxy can authenticate with
export const GALAXY_KEY_KINDS: readonly Schemas["KeyKind"][] = ["secret", "login_password"];

/** Field names follow the request body, so the server's errors find their inputs. */
export interface GalaxyServerFormValues {
  name: string;
  description: string;
  url: string;
  auth_url: string;
  key_id: string;
  validate_certs: boolean;
  position: number | "";
}

export function toGalaxyServerValues(server: GalaxyServer | null): GalaxyServerFormValues {
  return {
    name: server?.name ?? "",
    description: server?.description ?? "",
    url: server?.url ?? "",
    auth_url: server?.auth_url ?? "",
    key_id: server?.key_id == null ? "" : String(server.key_id),
    validate_certs: server?.validate_certs ?? true,
    position: server?.position ?? 0,
  };
}

/** The request body: an empty SSO URL or key is none (null clears it on a change). */
export function toGalaxyServerBody(v: GalaxyServerFormValues): GalaxyServerCreate {
  return {
    name: v.name.trim(),
    description: v.description,
    url: v.url.trim(),
    auth_url: v.auth_url.trim() === "" ? null : v.auth_url.trim(),
    key_id: v.key_id === "" ? null : Number(v.key_id),
    validate_certs: v.validate_certs,
    position: v.position === "" ? 0 : v.position,
  };
}

/** Said before sending; the server checks it again. */
export function validateServerName(name: string): string | null {
  if (name.trim() === "") return "Required";
  return SERVER_NAME_PATTERN.test(name.trim())
    ? null
    : "Lowercase letters, digits and _, starting with a letter";
}

/** A key as the key picker shows it: what ansible-galaxy does with it. */
export function galaxyKeyLabel(key: Key): string {
  return `${key.name} (${key.kind === "secret" ? "token" : "login and password"})`;
}
