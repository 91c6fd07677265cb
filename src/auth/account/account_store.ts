/**
 * SQL of the account changes: checking a token before hashing, setting a password, and switching
 * the address.
 *
 * @module
 */

import { SqlError, type SqlQuerier } from "../../sql/mod.ts";
import { authError } from "../errors.ts";
import type { AuthTableNames } from "../tables.ts";
import { userColumns, type UserRecord } from "./user_store.ts";

/** Whether an unused, unexpired token of this purpose exists (checked before hashing). */
export async function accountTokenUsable(
  db: SqlQuerier,
  tables: AuthTableNames,
  purpose: string,
  tokenHash: string,
): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM ${tables.accountTokens}
     WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()`,
    [tokenHash, purpose],
  );
  return rows.length > 0;
}

/**
 * Sets a live user's password hash; with `verifyEmail`, also marks `email` verified when it is
 * still the user's address (a reset link proves the mailbox). Returns the user, `null` if gone.
 */
export async function setPassword(
  db: SqlQuerier,
  tables: AuthTableNames,
  input: { userId: string; passwordHash: string; verifyEmail: string | null },
): Promise<UserRecord | null> {
  const [row] = await db.query<UserRecord>(
    `UPDATE ${tables.users} SET password_hash = $2, updated_at = now(),
       email_verified_at = CASE WHEN $3::text IS NOT NULL AND email = $3::text
         THEN coalesce(email_verified_at, now()) ELSE email_verified_at END
     WHERE id = $1 AND deleted_at IS NULL
     RETURNING ${userColumns()}`,
    [input.userId, input.passwordHash, input.verifyEmail],
  );
  return row ?? null;
}

/** A live user's row, locked for the rest of the transaction; `null` if gone. */
export async function lockUser(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<UserRecord | null> {
  const [row] = await db.query<UserRecord>(
    `SELECT ${userColumns()} FROM ${tables.users} WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`,
    [userId],
  );
  return row ?? null;
}

/** Switches a user's address to `email`, verified; 409 `EMAIL_TAKEN` when another has it. */
export async function setVerifiedEmail(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  email: string,
): Promise<UserRecord> {
  try {
    const [row] = await db.query<UserRecord>(
      `UPDATE ${tables.users} SET email = $2, email_verified_at = now(), updated_at = now()
       WHERE id = $1 RETURNING ${userColumns()}`,
      [userId, email],
    );
    return row;
  } catch (error) {
    if (error instanceof SqlError && error.code === "23505") {
      throw authError("EMAIL_TAKEN", "An account with this email already exists");
    }
    throw error;
  }
}

/**
 * Readdresses the pending invitations of `from` to `to` (the user proved both), except where `to`
 * already has a pending invitation of the same organization; returns how many moved.
 */
export async function readdressPendingInvitations(
  db: SqlQuerier,
  tables: AuthTableNames,
  from: string,
  to: string,
): Promise<number> {
  const rows = await db.query(
    `UPDATE ${tables.invitations} i SET email = $2, updated_at = now()
     WHERE i.email = $1 AND i.status = 'pending'
       AND NOT EXISTS (
         SELECT 1 FROM ${tables.invitations} o
         WHERE o.organization_id = i.organization_id AND o.email = $2 AND o.status = 'pending'
       )
     RETURNING i.id`,
    [from, to],
  );
  return rows.length;
}

/** Deletes the email verification tokens of a user (after an address change). */
export async function deleteVerificationTokens(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<void> {
  await db.query(`DELETE FROM ${tables.emailVerifications} WHERE user_id = $1`, [userId]);
}
