/**
 * Signing in with a second factor, as a small state machine: the password step, then (when the
 * server answers `otp_required`) the code step. The password given in the first step is kept
 * here, in memory, only to send it again with the code; it is never stored anywhere else and
 * is dropped when the reader starts over.
 */

/** What a refused sign-in asks for: problem+json's `code` member. */
export type LoginChallenge = "otp_required" | "otp_invalid";

export interface Credentials {
  username: string;
  password: string;
}

export type LoginStep =
  { step: "password" } | { step: "code"; credentials: Credentials; recovery: boolean };

export const START: LoginStep = { step: "password" };

/** The `code` member of a problem+json body, when it is one a sign-in step reacts to. */
export function loginChallenge(body: unknown): LoginChallenge | null {
  if (typeof body !== "object" || body === null) return null;
  const { code } = body as Record<string, unknown>;
  return code === "otp_required" || code === "otp_invalid" ? code : null;
}

/**
 * The step after a refused sign-in. The password step moves on to the code when the server
 * asks for one; any other refusal (wrong password, too many tries) stays where it is and shows
 * the server's message, as does a wrong code on the code step.
 */
export function afterRefusal(
  current: LoginStep,
  sent: Credentials,
  challenge: LoginChallenge | null,
): LoginStep {
  if (current.step === "password" && challenge === "otp_required") {
    return { step: "code", credentials: sent, recovery: false };
  }
  return current;
}

/** The code step, switched between the authenticator's code and a recovery code. */
export function withRecovery(current: LoginStep, recovery: boolean): LoginStep {
  return current.step === "code" ? { ...current, recovery } : current;
}

/**
 * What the reader typed as the code, as sent: an authenticator shows "123 456", so spaces go;
 * a recovery code is sent as typed, less the blanks around it.
 */
export function normalizeOtp(value: string, recovery: boolean): string {
  return recovery ? value.trim() : value.replace(/\s+/g, "");
}

export const CODE_DIGITS = 6;

/** Null when the code may be sent, else why not (checked before a request is spent on it). */
export function otpProblem(value: string, recovery: boolean): string | null {
  const otp = normalizeOtp(value, recovery);
  if (!otp) return recovery ? "Enter one of your recovery codes" : "Enter the code";
  if (recovery) return null;
  return new RegExp(`^\\d{${CODE_DIGITS}}$`).test(otp)
    ? null
    : `Enter the ${CODE_DIGITS}-digit code from your authenticator app`;
}

/** The second request: the same credentials and the code (`otp` may be a recovery code). */
export function loginWithOtp(step: Extract<LoginStep, { step: "code" }>, value: string) {
  return { ...step.credentials, otp: normalizeOtp(value, step.recovery) };
}
