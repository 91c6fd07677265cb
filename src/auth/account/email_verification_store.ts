/**
 * SQL of email verification tokens: one row per token sent, keyed by the token's SHA-256, bound to
 * the address it was sent to. A token is consumed by one conditional update, so of two racing
 * uses exactly one wins.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import { userColumns, type UserRecord } from "./user_store.ts";

/**
 * Replaces every earlier token of a user by a new one (its hash) for `email`, valid `ttlSeconds`;
 * returns its expiry. Earlier tokens stop working: only the latest mail verifies.
 */
export async function replaceVerificationToken(
  db: SqlQuerier,
  tables: AuthTableNames,
  input: { userId: string; email: string; tokenHash: string; ttlSeconds: number },
): Promise<Date> {
  const [row] = await db.query<{ expires_at: Date }>(
    `WITH dropped AS (DELETE FROM ${tables.emailVerifications} WHERE user_id = $1)
     INSERT INTO ${tables.emailVerifications} (user_id, email, token_hash, expires_at)
     VALUES ($1, $2, $3, now() + $4::float8 * interval '1 second')
     RETURNING expires_at`,
    [input.userId, input.email, input.tokenHash, input.ttlSeconds],
  );
  return row.expires_at;
}

/**
 * Consumes an unused, unexpired token whose address is still its user's, and marks the user
 * verified; returns the user, or `null` when nothing matched (see {@link verificationTokenState}).
 */
export async function consumeVerificationToken(
  db: SqlQuerier,
  tables: AuthTableNames,
  tokenHash: string,
): Promise<UserRecord | null> {
  const [row] = await db.query<UserRecord>(
    `WITH used AS (
       UPDATE ${tables.emailVerifications} v SET used_at = now()
       FROM ${tables.users} u
       WHERE v.token_hash = $1 AND v.used_at IS NULL AND v.expires_at > now()
         AND u.id = v.user_id AND u.email = v.email
       RETURNING v.user_id, v.email
     )
     UPDATE ${tables.users} u
     SET email_verified_at = coalesce(u.email_verified_at, now()), updated_at = now()
     FROM used WHERE u.id = used.user_id AND u.email = used.email
     RETURNING ${userColumns("u")}`,
    [tokenHash],
  );
  return row ?? null;
}

/** Why a token did not verify: unknown (or used, or for another address) or expired. */
export async function verificationTokenState(
  db: SqlQuerier,
  tables: AuthTableNames,
  tokenHash: string,
): Promise<"invalid" | "expired"> {
  const [row] = await db.query<{ expired: boolean }>(
    `SELECT (v.expires_at <= now()) AS expired
     FROM ${tables.emailVerifications} v JOIN ${tables.users} u ON u.id = v.user_id
     WHERE v.token_hash = $1 AND v.used_at IS NULL AND u.email = v.email`,
    [tokenHash],
  );
  return row?.expired ? "expired" : "invalid";
}
