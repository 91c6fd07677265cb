/**
 * SQL of the sign-in links: one row per mailed link, keyed by the token's SHA-256, bound to the
 * address it was mailed to (and to its account, when the address had one). Issuing a link deletes
 * the address's earlier ones (a newer link voids the older) and a bounded batch of long-expired
 * rows; a link is consumed by one conditional update, so of two racing uses exactly one wins.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import { userColumns, type UserRecord } from "../account/user_store.ts";

/** Replaces the address's links by a new one (its hash), valid `ttlSeconds`. */
export async function replaceEmailLinkToken(
  db: SqlQuerier,
  tables: AuthTableNames,
  input: {
    email: string;
    userId: string | null;
    tokenHash: string;
    redirectTo: string | null;
    ttlSeconds: number;
  },
): Promise<void> {
  await db.query(
    `WITH dropped AS (
       DELETE FROM ${tables.emailLinkTokens} WHERE email = $1
     ), purged AS (
       DELETE FROM ${tables.emailLinkTokens} WHERE id IN (
         SELECT id FROM ${tables.emailLinkTokens}
         WHERE expires_at < now() - interval '1 day' AND email <> $1
         ORDER BY expires_at LIMIT 100
       )
     )
     INSERT INTO ${tables.emailLinkTokens} (email, user_id, token_hash, redirect_to, expires_at)
     VALUES ($1, $2, $3, $4, now() + $5::float8 * interval '1 second')`,
    [input.email, input.userId, input.tokenHash, input.redirectTo, input.ttlSeconds],
  );
}

/** A consumed link: the address it was mailed to, its account (if any) and its redirect. */
export interface ConsumedEmailLink {
  email: string;
  userId: string | null;
  redirectTo: string | null;
}

/**
 * Marks an unused, unexpired link used and returns it; `null` when none matched (unknown, used,
 * voided or expired: see {@link emailLinkExpired}).
 */
export async function consumeEmailLinkToken(
  db: SqlQuerier,
  tables: AuthTableNames,
  tokenHash: string,
): Promise<ConsumedEmailLink | null> {
  const [row] = await db.query<ConsumedEmailLink>(
    `UPDATE ${tables.emailLinkTokens} SET used_at = now()
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
     RETURNING email, user_id::text AS "userId", redirect_to AS "redirectTo"`,
    [tokenHash],
  );
  return row ?? null;
}

/** Whether an unused link with this hash exists but has expired. */
export async function emailLinkExpired(
  db: SqlQuerier,
  tables: AuthTableNames,
  tokenHash: string,
): Promise<boolean> {
  const [row] = await db.query<{ expired: boolean }>(
    `SELECT (expires_at <= now()) AS expired FROM ${tables.emailLinkTokens}
     WHERE token_hash = $1 AND used_at IS NULL`,
    [tokenHash],
  );
  return row?.expired ?? false;
}

/**
 * The live user with this id that still has `email`, locked for the transaction; `null` when the
 * account was deleted or its address changed since the link was mailed.
 */
export async function lockUserWithEmail(
  tx: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  email: string,
): Promise<UserRecord | null> {
  const [row] = await tx.query<UserRecord>(
    `SELECT ${userColumns()} FROM ${tables.users}
     WHERE id = $1 AND email = $2 AND deleted_at IS NULL FOR UPDATE`,
    [userId, email],
  );
  return row ?? null;
}

/**
 * Creates the account of an address proven by a link: verified, without a password. `null` when
 * the address has an account already (created meanwhile): the caller signs in to that one.
 */
export async function insertLinkedUser(
  tx: SqlQuerier,
  tables: AuthTableNames,
  email: string,
): Promise<UserRecord | null> {
  const [row] = await tx.query<UserRecord>(
    `INSERT INTO ${tables.users} (email, password_hash, role, email_verified_at)
     VALUES ($1, '', 'user', now())
     ON CONFLICT (email) DO NOTHING
     RETURNING ${userColumns()}`,
    [email],
  );
  return row ?? null;
}

/** The live user with this address, locked for the transaction; `null` if none. */
export async function lockUserByEmail(
  tx: SqlQuerier,
  tables: AuthTableNames,
  email: string,
): Promise<UserRecord | null> {
  const [row] = await tx.query<UserRecord>(
    `SELECT ${userColumns()} FROM ${tables.users}
     WHERE email = $1 AND deleted_at IS NULL FOR UPDATE`,
    [email],
  );
  return row ?? null;
}

/**
 * Marks an unverified address verified and removes the account's password: whoever set the
 * account up never proved they read its mail (account pre-hijacking), so what they set up goes
 * (the caller also ends their sessions, tokens and links). `null` when the address was verified
 * already (nothing changes).
 */
export async function claimUnverifiedAccount(
  tx: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<UserRecord | null> {
  const [row] = await tx.query<UserRecord>(
    `UPDATE ${tables.users} SET email_verified_at = now(), password_hash = '', updated_at = now()
     WHERE id = $1 AND email_verified_at IS NULL
     RETURNING ${userColumns()}`,
    [userId],
  );
  return row ?? null;
}
