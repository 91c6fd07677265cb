/**
 * SQL of the WebAuthn challenges: one row per challenge handed to a browser, keyed by its SHA-256,
 * bound to a ceremony (`purpose`) and, for a registration, to the user. A challenge is consumed by
 * one conditional `DELETE … RETURNING`, so of two racing uses exactly one wins; issuing one
 * deletes a bounded batch of long-expired rows, so abandoned ceremonies do not pile up.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";

/**
 * What a challenge was issued for: adding a passkey to the signed-in user, signing in with one,
 * or answering the second step of a sign-in.
 */
export type WebAuthnPurpose = "registration" | "sign-in" | "two-factor";

/** What a challenge is bound to. */
export interface ChallengeBinding {
  purpose: WebAuthnPurpose;
  /** The user it was issued to (a registration, a second step); `null` for a sign-in. */
  userId: string | null;
  /** The second-step challenge it answers (`two-factor` only). */
  twoFactorChallengeId?: string | null;
}

/** Expired rows deleted by each new challenge, at most. */
const PURGE_BATCH = 100;

/**
 * Stores a challenge's hash for `ttlSeconds`. A registration challenge replaces the user's earlier
 * ones (one ceremony at a time per account: a signed-in client cannot fill the table).
 */
export async function insertWebAuthnChallenge(
  db: SqlQuerier,
  tables: AuthTableNames,
  input: ChallengeBinding & { challengeHash: string; ttlSeconds: number },
): Promise<void> {
  await db.query(
    `WITH replaced AS (
       DELETE FROM ${tables.webauthnChallenges}
       WHERE $2 = 'registration' AND purpose = 'registration' AND user_id = $3::uuid
     ), purged AS (
       DELETE FROM ${tables.webauthnChallenges} WHERE id IN (
         SELECT id FROM ${tables.webauthnChallenges}
         WHERE expires_at < now() - interval '1 hour'
         ORDER BY expires_at LIMIT ${PURGE_BATCH}
       )
     )
     INSERT INTO ${tables.webauthnChallenges}
       (challenge_hash, purpose, user_id, two_factor_challenge_id, expires_at)
     VALUES ($1, $2, $3::uuid, $4::uuid, now() + $5::float8 * interval '1 second')`,
    [
      input.challengeHash,
      input.purpose,
      input.userId,
      input.twoFactorChallengeId ?? null,
      input.ttlSeconds,
    ],
  );
}

/**
 * Deletes the challenge with this hash if it was issued for this binding, and tells whether it
 * was still live; `null` when there was none (never issued, used, or issued for another ceremony
 * or user: then it stays for its own).
 */
export async function consumeWebAuthnChallenge(
  db: SqlQuerier,
  tables: AuthTableNames,
  challengeHash: string,
  binding: ChallengeBinding,
): Promise<{ live: boolean } | null> {
  const [row] = await db.query<{ live: boolean }>(
    `DELETE FROM ${tables.webauthnChallenges}
     WHERE challenge_hash = $1 AND purpose = $2
       AND user_id IS NOT DISTINCT FROM $3::uuid
       AND two_factor_challenge_id IS NOT DISTINCT FROM $4::uuid
     RETURNING expires_at > now() AS live`,
    [challengeHash, binding.purpose, binding.userId, binding.twoFactorChallengeId ?? null],
  );
  return row ?? null;
}
