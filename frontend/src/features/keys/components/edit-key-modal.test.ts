import { describe, expect, it } from "vitest";
import { toKeyUpdate } from "@/features/keys/components/edit-key-modal";

const blank = {
  name: "deploy",
  description: "",
  username: "ops",
  vault_id: "prod",
  private_key: "",
  passphrase: "",
  password: "",
  value: "",
};

describe("toKeyUpdate", () => {
  it("keeps the stored secret when no new one is typed", () => {
    expect(toKeyUpdate("ssh", blank)).toEqual({ name: "deploy", description: "", username: "ops" });
    expect(toKeyUpdate("secret", blank)).toEqual({ name: "deploy", description: "" });
  });

  it("sends only the typed secret fields of the key's kind", () => {
    expect(toKeyUpdate("vault_password", { ...blank, password: "new", value: "x" })).toEqual({
      name: "deploy",
      description: "",
      vault_id: "prod",
      password: "new",
    });
    expect(toKeyUpdate("ssh", { ...blank, private_key: "KEY", passphrase: "pp" })).toMatchObject({
      private_key: "KEY",
      passphrase: "pp",
    });
  });
});
