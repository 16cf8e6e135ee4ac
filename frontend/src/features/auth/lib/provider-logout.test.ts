import { describe, expect, it } from "vitest";
import { providerLogout } from "@/features/auth/lib/provider-logout";

describe("providerLogout", () => {
  it("follows the provider's logout the server answered", () => {
    const target = "https://idp.example/session/end?client_id=steward&id_token_hint=a.b.c";
    expect(providerLogout({ redirect_to: target })).toBe(target);
  });

  it("stays in the console when there is none (204: no body)", () => {
    expect(providerLogout(undefined)).toBeNull();
    expect(providerLogout(null)).toBeNull();
    expect(providerLogout({})).toBeNull();
  });

  it("never follows a script or a relative or malformed target", () => {
    for (const target of ["javascript:alert(1)", "data:text/html,x", "/login", "//evil", 42]) {
      expect(providerLogout({ redirect_to: target })).toBeNull();
    }
  });
});
