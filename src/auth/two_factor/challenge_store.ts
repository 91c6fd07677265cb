/**
 * The SQL of the second steps in progress: one row per sign-in waiting for its second factor,
 * found by the SHA-256 of its challenge, 5 minutes and 5 attempts at most, deleted by the answer
 * that completes it. The row keeps what the credential will carry (the sign-in method, the active
 * organization, the User-Agent, the email link's or provider flow's `redirectTo`), never the
 * challenge itself.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";

/** How long a challenge can be answered: 5 minutes. */
export const CHALLENGE_TTL_SECONDS = 5 * 60;
/** How many answers a challenge takes; the last wrong one deletes it. */
export const CHALLENGE_MAX_ATTEMPTS = 5;

/** What a challenge keeps for the credential it leads to. */
export interface ChallengeRecord {
  userId: string;
  /** How the first step signed in: `password`, `emailLink`, `oauth`, `telegram`. */
  signInMethod: string;
  activeOrganizationId: string | null;
  userAgent: string | null;
  redirectTo: string | null;
}

/** A challenge as the second step finds it. */
export interface ChallengeRow extends ChallengeRecord {
  id: string;
  /** The user's address (the per-account rate limit's key). */
  email: string;
  expired: boolean;
}

/** Stores a new challenge; old expired ones go. */
export async function insertChallenge(
  db: SqlQuerier,
  tables: AuthTableNames,
  tokenHash: string,
  record: ChallengeRecord,
): Promise<void> {
  // Kept a day past expiry so that a late answer hears "expired" rather than "unknown".
  await db.query(
    `DELETE FROM ${tables.twoFactorChallenges} WHERE expires_at < now() - interval '1 day'`,
  );
  await db.query(
    `INSERT INTO ${tables.twoFactorChallenges}
       (token_hash, user_id, sign_in_method, active_organization_id, user_agent, redirect_to,
        expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + $7::float8 * interval '1 second')`,
    [
      tokenHash,
      record.userId,
      record.signInMethod,
      record.activeOrganizationId,
      record.userAgent,
      record.redirectTo,
      CHALLENGE_TTL_SECONDS,
    ],
  );
}

/** The challenge of `tokenHash` whose user still exists; `null` when unknown or used. */
export async function findChallenge(
  db: SqlQuerier,
  tables: AuthTableNames,
  tokenHash: string,
): Promise<ChallengeRow | null> {
  const [row] = await db.query<ChallengeRow>(
    `SELECT c.id, c.user_id AS "userId", c.sign_in_method AS "signInMethod",
       c.active_organization_id AS "activeOrganizationId", c.user_agent AS "userAgent",
       c.redirect_to AS "redirectTo", u.email, c.expires_at <= now() AS expired
     FROM ${tables.twoFactorChallenges} c JOIN ${tables.users} u ON u.id = c.user_id
     WHERE c.token_hash = $1 AND u.deleted_at IS NULL`,
    [tokenHash],
  );
  return row ?? null;
}

/**
 * Counts one attempt before the answer is checked: the attempt's number, or `null` when the
 * challenge is gone, expired or out of attempts. One statement: concurrent answers cannot take
 * more than {@link CHALLENGE_MAX_ATTEMPTS} between them.
 */
export async function claimAttempt(
  db: SqlQuerier,
  tables: AuthTableNames,
  id: string,
): Promise<number | null> {
  const [row] = await db.query<{ attempts: number }>(
    `UPDATE ${tables.twoFactorChallenges} SET attempts = attempts + 1
     WHERE id = $1 AND attempts < $2 AND expires_at > now()
     RETURNING attempts`,
    [id, CHALLENGE_MAX_ATTEMPTS],
  );
  return row?.attempts ?? null;
}

/** Deletes a challenge; whether it was still there (of two answers, one takes it). */
export async function deleteChallenge(
  db: SqlQuerier,
  tables: AuthTableNames,
  id: string,
): Promise<boolean> {
  const rows = await db.query(
    `DELETE FROM ${tables.twoFactorChallenges} WHERE id = $1 RETURNING id`,
    [id],
  );
  return rows.length === 1;
}

/**
 * Deletes the user's pending challenges: a new password voids what the old one proved (a first
 * step waiting for its code).
 */
export async function deleteUserChallenges(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<void> {
  await db.query(`DELETE FROM ${tables.twoFactorChallenges} WHERE user_id = $1`, [userId]);
}
