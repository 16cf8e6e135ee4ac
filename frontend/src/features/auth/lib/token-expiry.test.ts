import { describe, expect, it } from "vitest";
import { expiresAt, tokenState } from "@/features/auth/lib/token-expiry";

const NOW = Date.parse("2025-03-01T12:00:00Z");

describe("expiresAt", () => {
  it("gives null for a token that never expires", () => {
    expect(expiresAt("never", "", NOW)).toBeNull();
  });

  it("counts preset days from now, as an instant with its zone", () => {
    expect(expiresAt("30", "", NOW)).toBe("2025-03-31T12:00:00.000Z");
    expect(expiresAt("365", "", NOW)).toBe("2026-03-01T12:00:00.000Z");
  });

  it("ends a picked date at the end of that day, in the reader's zone", () => {
    const value = expiresAt("date", "2025-04-10", NOW);
    expect(value).toBe(new Date(2025, 3, 10, 23, 59, 59).toISOString());
  });

  it("gives undefined when no readable date was picked", () => {
    expect(expiresAt("date", "", NOW)).toBeUndefined();
    expect(expiresAt("date", "10/04/2025", NOW)).toBeUndefined();
  });
});

describe("tokenState", () => {
  it("tells revoked, expired and active tokens apart", () => {
    expect(tokenState({ revoked_at: "2025-01-01T00:00:00Z", expires_at: null }, NOW)).toBe(
      "revoked",
    );
    expect(tokenState({ revoked_at: null, expires_at: "2025-02-01T00:00:00Z" }, NOW)).toBe(
      "expired",
    );
    expect(tokenState({ revoked_at: null, expires_at: "2025-05-01T00:00:00Z" }, NOW)).toBe(
      "active",
    );
    expect(tokenState({ revoked_at: null, expires_at: null }, NOW)).toBe("active");
  });
});
