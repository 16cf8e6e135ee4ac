import { describe, expect, it } from "vitest";
import {
  START,
  afterRefusal,
  loginChallenge,
  loginWithOtp,
  normalizeOtp,
  otpProblem,
  withRecovery,
} from "@/features/auth/lib/login-steps";

const SENT = { username: "ada", password: "correct horse" };

describe("loginChallenge", () => {
  it("reads the problem's code member when it is about the second factor", () => {
    expect(loginChallenge({ status: 401, code: "otp_required" })).toBe("otp_required");
    expect(loginChallenge({ status: 401, code: "otp_invalid" })).toBe("otp_invalid");
  });

  it("is null for any other refusal or body", () => {
    expect(loginChallenge({ status: 401, detail: "Invalid username or password" })).toBeNull();
    expect(loginChallenge({ code: "something_else" })).toBeNull();
    expect(loginChallenge({ code: ["otp_required"] })).toBeNull();
    expect(loginChallenge("otp_required")).toBeNull();
    expect(loginChallenge(null)).toBeNull();
    expect(loginChallenge(undefined)).toBeNull();
  });
});

describe("afterRefusal", () => {
  it("moves from the password to the code when the server asks for one, keeping what was sent", () => {
    expect(afterRefusal(START, SENT, "otp_required")).toEqual({
      step: "code",
      credentials: SENT,
      recovery: false,
    });
  });

  it("stays on the password step for a wrong password or anything else", () => {
    expect(afterRefusal(START, SENT, null)).toBe(START);
    // a code refused before one was asked for is not a reason to ask for one
    expect(afterRefusal(START, SENT, "otp_invalid")).toBe(START);
  });

  it("stays on the code step, recovery or not, when the code is refused", () => {
    const code = afterRefusal(START, SENT, "otp_required");
    expect(afterRefusal(code, SENT, "otp_invalid")).toBe(code);
    expect(afterRefusal(code, SENT, null)).toBe(code);
    const recovery = withRecovery(code, true);
    expect(afterRefusal(recovery, SENT, "otp_invalid")).toBe(recovery);
  });
});

describe("withRecovery", () => {
  it("switches the code step between the app's code and a recovery code", () => {
    const code = afterRefusal(START, SENT, "otp_required");
    const recovery = withRecovery(code, true);
    expect(recovery).toEqual({ step: "code", credentials: SENT, recovery: true });
    expect(withRecovery(recovery, false)).toEqual(code);
  });

  it("leaves the password step alone", () => {
    expect(withRecovery(START, true)).toBe(START);
  });
});

describe("normalizeOtp and otpProblem", () => {
  it("drops the spaces an authenticator shows inside a code", () => {
    expect(normalizeOtp(" 123 456 ", false)).toBe("123456");
    expect(otpProblem("123 456", false)).toBeNull();
  });

  it("sends a recovery code as typed, less the blanks around it", () => {
    expect(normalizeOtp("  ab12-cd34 \n", true)).toBe("ab12-cd34");
    expect(otpProblem("ab12-cd34", true)).toBeNull();
  });

  it("asks for six digits before sending an app's code", () => {
    expect(otpProblem("", false)).toBe("Enter the code");
    expect(otpProblem("12345", false)).toMatch(/6-digit/);
    expect(otpProblem("1234567", false)).toMatch(/6-digit/);
    expect(otpProblem("12345a", false)).toMatch(/6-digit/);
    expect(otpProblem("   ", true)).toBe("Enter one of your recovery codes");
  });
});

describe("loginWithOtp", () => {
  it("sends the kept credentials again with the code", () => {
    const code = afterRefusal(START, SENT, "otp_required");
    if (code.step !== "code") throw new Error("not on the code step");
    expect(loginWithOtp(code, "123 456")).toEqual({ ...SENT, otp: "123456" });
    const recovery = withRecovery(code, true);
    if (recovery.step !== "code") throw new Error("not on the code step");
    expect(loginWithOtp(recovery, " ab12-cd34 ")).toEqual({ ...SENT, otp: "ab12-cd34" });
  });
});
