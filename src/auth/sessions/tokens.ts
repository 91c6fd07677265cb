/**
 * Secret tokens: 256-bit random values in base64url, stored only as SHA-256 digests where the
 * plaintext is never needed again, and compared in constant time where it is.
 *
 * @module
 */

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** Bytes of randomness in every token (256 bits). */
export const TOKEN_BYTES = 32;

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A fresh token: 32 bytes from the CSPRNG, base64url without padding (43 characters). */
export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString("base64url");
}

/** Whether a string has the shape of a token this module issued (cheap pre-check). */
export function looksLikeToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}

/** The hex SHA-256 of a token: what the database stores instead of the token. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Compares two secrets in time independent of where they differ (their lengths may leak). */
export function secretsEqual(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  // Compare equal-length digests so even the length check does not short-circuit on content.
  const leftDigest = createHash("sha256").update(left).digest();
  const rightDigest = createHash("sha256").update(right).digest();
  return timingSafeEqual(leftDigest, rightDigest) && left.length === right.length;
}
