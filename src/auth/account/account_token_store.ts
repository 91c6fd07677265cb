/**
 * SQL of the single-use account tokens (password resets, email changes): one row per token
 * mailed, keyed by the token's SHA-256, bound to the address it was mailed to. Issuing a token
 * deletes the user's earlier ones of the same purpose (a newer request voids older ones); a
 * token is consumed by one conditional update, so of two racing uses exactly one wins.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";

/** What an account token is for. */
export type AccountTokenPurpose = "password_reset" | "email_change";

/** Replaces the user's tokens of `purpose` by a new one (its hash) valid `ttlSeconds`. */
export async function replaceAccountToken(
  db: SqlQuerier,
  tables: AuthTableNames,
  input: {
    userId: string;
    purpose: AccountTokenPurpose;
    email: string;
    tokenHash: string;
    ttlSeconds: number;
  },
): Promise<void> {
  await db.query(
    `WITH dropped AS (
       DELETE FROM ${tables.accountTokens} WHERE user_id = $1 AND purpose = $2
     )
     INSERT INTO ${tables.accountTokens} (user_id, purpose, email, token_hash, expires_at)
     VALUES ($1, $2, $3, $4, now() + $5::float8 * interval '1 second')`,
    [input.userId, input.purpose, input.email, input.tokenHash, input.ttlSeconds],
  );
}

/** A consumed token: whose it is and the address it was mailed to. */
export interface ConsumedAccountToken {
  userId: string;
  email: string;
}

/**
 * Marks an unused, unexpired token of `purpose` used and returns it; `null` when none matched
 * (unknown, used, voided or expired: see {@link accountTokenExpired}). A password reset token
 * must also still be for the user's current address.
 */
export async function consumeAccountToken(
  db: SqlQuerier,
  tables: AuthTableNames,
  purpose: AccountTokenPurpose,
  tokenHash: string,
): Promise<ConsumedAccountToken | null> {
  const sameAddress = purpose === "password_reset" ? "AND u.email = t.email" : "";
  const [row] = await db.query<{ user_id: string; email: string }>(
    `UPDATE ${tables.accountTokens} t SET used_at = now()
     FROM ${tables.users} u
     WHERE t.token_hash = $1 AND t.purpose = $2 AND t.used_at IS NULL AND t.expires_at > now()
       AND u.id = t.user_id AND u.deleted_at IS NULL ${sameAddress}
     RETURNING t.user_id, t.email`,
    [tokenHash, purpose],
  );
  return row ? { userId: row.user_id, email: row.email } : null;
}

/** Whether an unused token of `purpose` with this hash exists but has expired. */
export async function accountTokenExpired(
  db: SqlQuerier,
  tables: AuthTableNames,
  purpose: AccountTokenPurpose,
  tokenHash: string,
): Promise<boolean> {
  const [row] = await db.query<{ expired: boolean }>(
    `SELECT (expires_at <= now()) AS expired FROM ${tables.accountTokens}
     WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL`,
    [tokenHash, purpose],
  );
  return row?.expired ?? false;
}

/** Deletes every token of a user (after a reset, an email change, a deletion). */
export async function deleteAccountTokens(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  purpose?: AccountTokenPurpose,
): Promise<void> {
  if (purpose === undefined) {
    await db.query(`DELETE FROM ${tables.accountTokens} WHERE user_id = $1`, [userId]);
  } else {
    await db.query(
      `DELETE FROM ${tables.accountTokens} WHERE user_id = $1 AND purpose = $2`,
      [userId, purpose],
    );
  }
}
