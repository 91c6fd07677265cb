/**
 * The SQL of identities: an account at a provider (the provider's id and its stable `subject`)
 * linked to one user; one provider account is linked to at most one user.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import { userColumns, type UserRecord } from "../account/user_store.ts";
import type { AuthTableNames } from "../tables.ts";
import type { AuthIdentity } from "./oauth_inputs.ts";

const IDENTITY_COLUMNS = `id, provider, email, created_at AS "createdAt"`;

type IdentityRow = Omit<AuthIdentity, "createdAt"> & { createdAt: Date };

function toIdentity(row: IdentityRow): AuthIdentity {
  return {
    id: row.id,
    provider: row.provider,
    email: row.email,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The live user a provider account is linked to, with the identity's id; `null` when none. */
export async function findIdentityUser(
  db: SqlQuerier,
  tables: AuthTableNames,
  provider: string,
  subject: string,
): Promise<{ identityId: string; user: UserRecord } | null> {
  const [row] = await db.query<UserRecord & { identityId: string }>(
    `SELECT i.id AS "identityId", ${userColumns("u")}
     FROM ${tables.identities} i
     JOIN ${tables.users} u ON u.id = i.user_id AND u.deleted_at IS NULL
     WHERE i.provider = $1 AND i.subject = $2`,
    [provider, subject],
  );
  if (!row) return null;
  const { identityId, ...user } = row;
  return { identityId, user };
}

/** Records the address the provider gave at this sign-in. */
export async function updateIdentityEmail(
  db: SqlQuerier,
  tables: AuthTableNames,
  identityId: string,
  email: string | null,
  emailVerified: boolean,
): Promise<void> {
  await db.query(
    `UPDATE ${tables.identities} SET email = $2, email_verified = $3 WHERE id = $1`,
    [identityId, email, emailVerified],
  );
}

/**
 * Links a provider account to a user; `null` when that provider account is already linked (to
 * this user or another: the caller tells which).
 */
export async function insertIdentity(
  db: SqlQuerier,
  tables: AuthTableNames,
  identity: {
    userId: string;
    provider: string;
    subject: string;
    email: string | null;
    emailVerified: boolean;
  },
): Promise<AuthIdentity | null> {
  const [row] = await db.query<IdentityRow>(
    `INSERT INTO ${tables.identities} (user_id, provider, subject, email, email_verified)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (provider, subject) DO NOTHING
     RETURNING ${IDENTITY_COLUMNS}`,
    [identity.userId, identity.provider, identity.subject, identity.email, identity.emailVerified],
  );
  return row ? toIdentity(row) : null;
}

/** A user's identities, oldest first. */
export async function listIdentities(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<AuthIdentity[]> {
  const rows = await db.query<IdentityRow>(
    `SELECT ${IDENTITY_COLUMNS} FROM ${tables.identities} WHERE user_id = $1
     ORDER BY created_at, id`,
    [userId],
  );
  return rows.map(toIdentity);
}

/**
 * The ways into an account other than the identity `exceptIdentityId` (and the passkey
 * `exceptPasskeyId`), with the user row locked for the transaction (two removals at once cannot
 * both take the last way): a password, a linked Telegram account, identities of the providers
 * still configured, passkeys.
 */
export async function otherWaysIn(
  tx: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  exceptIdentityId: string | null,
  providers: readonly string[],
  options: { exceptPasskeyId?: string } = {},
): Promise<number> {
  const [row] = await tx.query<{ ways: number }>(
    `SELECT (u.password_hash <> '')::int
       + (SELECT count(*) FROM ${tables.telegramAccounts} t WHERE t.user_id = u.id)::int
       + (SELECT count(*) FROM ${tables.identities} i
          WHERE i.user_id = u.id AND i.id IS DISTINCT FROM $2::uuid
            AND i.provider = ANY($3::text[]))::int
       + (SELECT count(*) FROM ${tables.passkeys} p
          WHERE p.user_id = u.id AND p.id IS DISTINCT FROM $4::uuid)::int AS ways
     FROM ${tables.users} u WHERE u.id = $1
     FOR UPDATE OF u`,
    [userId, exceptIdentityId, [...providers], options.exceptPasskeyId ?? null],
  );
  return row?.ways ?? 0;
}

/** Deletes one of a user's identities; answers it, or `null` when the user has no such one. */
export async function deleteIdentity(
  tx: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  identityId: string,
): Promise<AuthIdentity | null> {
  const [row] = await tx.query<IdentityRow>(
    `DELETE FROM ${tables.identities} WHERE id = $1 AND user_id = $2
     RETURNING ${IDENTITY_COLUMNS}`,
    [identityId, userId],
  );
  return row ? toIdentity(row) : null;
}

/** Deletes every identity of a user; answers them. */
export async function deleteUserIdentities(
  tx: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<AuthIdentity[]> {
  const rows = await tx.query<IdentityRow>(
    `DELETE FROM ${tables.identities} WHERE user_id = $1 RETURNING ${IDENTITY_COLUMNS}`,
    [userId],
  );
  return rows.map(toIdentity);
}
