// RFC 6238 TOTP (HMAC-SHA1, 30 s steps, 6 digits) from a base32 secret, as an authenticator app
// computes it: the e2e tests enroll and sign in with real codes.
import { createHmac } from "node:crypto";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
export const STEP_SECONDS = 30;

export function base32Decode(secret: string): Buffer {
  const clean = secret.replace(/[\s=-]/g, "").toUpperCase();
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The code of time step `counter` (RFC 4226 HOTP with dynamic truncation). */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

export function counterAt(unixMs: number): number {
  return Math.floor(unixMs / 1000 / STEP_SECONDS);
}

export function totp(secret: string, unixMs = Date.now(), digits = 6): string {
  return hotp(base32Decode(secret), counterAt(unixMs), digits);
}

/**
 * A code of a time step later than `usedCounter` (a server accepts each step's code once, and
 * the steps next to its own: ±1), so a second code need not wait for the clock: the next
 * step's code is taken at once. Waits only when even that one was used; returns the code with
 * its step.
 */
export async function freshCode(
  secret: string,
  usedCounter: number | null,
): Promise<{ code: string; counter: number }> {
  let current = counterAt(Date.now());
  const wanted = usedCounter === null ? current : Math.max(current, usedCounter + 1);
  while (wanted > current + 1) {
    // the server's step must come within one of the code's
    const next = (current + 1) * STEP_SECONDS * 1000;
    await new Promise((wait) => setTimeout(wait, next - Date.now() + 50));
    current = counterAt(Date.now());
  }
  return { code: hotp(base32Decode(secret), wanted), counter: wanted };
}
