/**
 * Recovery codes: 10 single-use codes of 50 random bits each, written `xxxxx-xxxxx` in a 32-letter
 * alphabet without look-alikes (no `i`, `l`, `o`, `u`). They are shown once; only the SHA-256 of
 * each (normalized: lower case, no separators) is stored. 50 bits make a guess hopeless within
 * the challenge's 5 attempts and the sign-in rate limits, so a fast hash is enough.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import { hashToken } from "../sessions/tokens.ts";

/** How many codes a set has. */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const LENGTH = 10;

/** One new code, `xxxxx-xxxxx`. */
function newCode(): string {
  // 32 letters: each byte's low 5 bits pick one, without bias.
  const letters = [...randomBytes(LENGTH)].map((byte) => ALPHABET[byte & 31]).join("");
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

/** A code as typed: lower-cased, without spaces or dashes; `null` when it cannot be one. */
export function normalizeRecoveryCode(code: string): string | null {
  const plain = code.toLowerCase().replace(/[\s-]+/g, "");
  return plain.length === LENGTH && [...plain].every((c) => ALPHABET.includes(c)) ? plain : null;
}

/** The stored form of a (normalized) code. */
export function recoveryCodeHash(normalized: string): string {
  return hashToken(normalized);
}

/** A new set: the codes to show, and the hashes to store. */
export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newCode());
  const list = [...codes];
  return {
    codes: list,
    hashes: list.map((code) => recoveryCodeHash(normalizeRecoveryCode(code)!)),
  };
}
