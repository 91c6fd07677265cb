/**
 * TOTP (RFC 6238) through the `otpauth` library, imported on first use: new secrets, the
 * `otpauth://` URL an authenticator app reads, and which time step a code belongs to. The module's
 * parameters are the ones every authenticator app assumes: HMAC-SHA-1, 6 digits, 30-second steps;
 * a code of the step before or after the current one is accepted too (clock drift).
 *
 * @module
 */

import type * as OtpAuthLibrary from "otpauth";

/** The length of a time step, in seconds. */
export const TOTP_PERIOD_SECONDS = 30;
/** The digits of a code. */
export const TOTP_DIGITS = 6;
/** How many steps before and after the current one a code may belong to. */
export const TOTP_DRIFT_STEPS = 1;
/** The secret's size: 160 bits, RFC 4226's recommendation (32 base32 characters). */
const SECRET_BYTES = 20;

type OtpAuth = typeof OtpAuthLibrary;
let library: Promise<OtpAuth> | null = null;

/** `otpauth`, imported on first use (a deployment without TOTP never loads it). */
function otpauth(): Promise<OtpAuth> {
  library ??= import("otpauth");
  return library;
}

/** A new random secret, base32 (from the CSPRNG, through the library). */
export async function newTotpSecret(): Promise<string> {
  const { Secret } = await otpauth();
  return new Secret({ size: SECRET_BYTES }).base32;
}

/** The `otpauth://totp/…` URL of `secret` for an account `label` at `issuer`. */
export async function totpUrl(secret: string, issuer: string, label: string): Promise<string> {
  const { Secret, TOTP } = await otpauth();
  return new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  }).toString();
}

/**
 * A code as typed: digits, spaces allowed between them (`"492 039"`); `null` when it cannot be a
 * code (then no HMAC is computed).
 */
export function normalizeTotpCode(code: string): string | null {
  const digits = code.replace(/\s+/g, "");
  return digits.length === TOTP_DIGITS && /^[0-9]+$/.test(digits) ? digits : null;
}

/**
 * The time step (`floor(unix seconds / 30)`) whose code `code` is, among the current one and its
 * neighbours; `null` when it is none of them. The library compares in constant time.
 */
export async function matchingStep(
  secret: string,
  code: string,
  now: number = Date.now(),
): Promise<number | null> {
  const digits = normalizeTotpCode(code);
  if (digits === null) return null;
  const { Secret, TOTP } = await otpauth();
  const totp = new TOTP({
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
  const delta = totp.validate({ token: digits, timestamp: now, window: TOTP_DRIFT_STEPS });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}
