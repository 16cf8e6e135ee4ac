import { describe, expect, it } from "vitest";
import { ssoUrl } from "./sso-url";

const LOGIN = "/api/v1/auth/oidc/login";

describe("ssoUrl", () => {
  it("passes a path of the console as next", () => {
    expect(ssoUrl(LOGIN, "/projects/3?tab=runs")).toBe(
      `${LOGIN}?next=%2Fprojects%2F3%3Ftab%3Druns`,
    );
  });

  it("drops next when it would leave the site or is missing", () => {
    for (const next of [null, "", "//evil.example", "/\\evil.example", "https://evil.example"]) {
      expect(ssoUrl(LOGIN, next)).toBe(LOGIN);
    }
  });
});
