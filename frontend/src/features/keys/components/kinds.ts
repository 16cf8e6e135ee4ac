import type { Schemas } from "@/api/client";

export type KeyKind = Schemas["KeyKind"];

export const KEY_KINDS: Record<KeyKind, string> = {
  ssh: "SSH private key",
  login_password: "Login and password",
  vault_password: "Vault password",
  secret: "Secret value",
};
