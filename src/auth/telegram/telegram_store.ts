/**
 * The SQL of Telegram accounts: link tokens (only their SHA-256 stored), the link of one
 * Telegram user to one account, and the reads the sign-in, `GET /me` and the bot make.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import { userColumns, type UserRecord } from "../account/user_store.ts";
import type { EntryRow } from "../organizations/organization_store.ts";
import {
  memberAccessColumn,
  memberColumns,
  organizationColumns,
} from "../organizations/resources.ts";
import type { AuthTelegramAccount } from "./telegram_inputs.ts";

/** A link token as stored. */
export interface LinkTokenRow {
  userId: string;
  expired: boolean;
  usedBy: string | null;
}

/** Inserts a link token of `userId` (voiding their unused older ones); answers its expiry. */
export async function insertLinkToken(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  tokenHash: string,
  ttlSeconds: number,
): Promise<Date> {
  await db.query(
    `DELETE FROM ${tables.telegramLinkTokens} WHERE user_id = $1 AND used_at IS NULL`,
    [userId],
  );
  const [row] = await db.query<{ expires_at: Date }>(
    `INSERT INTO ${tables.telegramLinkTokens} (user_id, token_hash, expires_at)
     VALUES ($1, $2, now() + $3::float8 * interval '1 second')
     RETURNING expires_at`,
    [userId, tokenHash, ttlSeconds],
  );
  return row.expires_at;
}

/** The token with this hash, locked for the transaction; `null` when unknown. */
export async function lockLinkToken(
  tx: SqlQuerier,
  tables: AuthTableNames,
  tokenHash: string,
): Promise<LinkTokenRow | null> {
  const [row] = await tx.query<LinkTokenRow>(
    `SELECT t.user_id AS "userId", t.expires_at <= now() AS expired, t.used_by::text AS "usedBy"
     FROM ${tables.telegramLinkTokens} t
     JOIN ${tables.users} u ON u.id = t.user_id AND u.deleted_at IS NULL
     WHERE t.token_hash = $1
     FOR UPDATE OF t`,
    [tokenHash],
  );
  return row ?? null;
}

/** Marks a token used by a Telegram user. */
export async function useLinkToken(
  tx: SqlQuerier,
  tables: AuthTableNames,
  tokenHash: string,
  telegramUserId: string,
): Promise<void> {
  await tx.query(
    `UPDATE ${tables.telegramLinkTokens} SET used_at = now(), used_by = $2::bigint
     WHERE token_hash = $1`,
    [tokenHash, telegramUserId],
  );
}

/** The account a Telegram user is linked to (its id), or `null`. */
export async function linkedUserId(
  tx: SqlQuerier,
  tables: AuthTableNames,
  telegramUserId: string,
): Promise<string | null> {
  const [row] = await tx.query<{ user_id: string }>(
    `SELECT user_id FROM ${tables.telegramAccounts} WHERE telegram_user_id = $1::bigint`,
    [telegramUserId],
  );
  return row?.user_id ?? null;
}

/**
 * Links a Telegram user to an account, replacing the account's previous Telegram user; answers
 * `false` when that Telegram user is linked to another account (the caller rolls back then: a
 * concurrent link can make the insert, after the delete, find the user taken).
 */
export async function linkAccount(
  tx: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  telegram: AuthTelegramAccount,
): Promise<boolean> {
  const owner = await linkedUserId(tx, tables, telegram.id);
  if (owner !== null && owner !== userId) return false;
  await tx.query(
    `DELETE FROM ${tables.telegramAccounts} WHERE user_id = $1 AND telegram_user_id <> $2::bigint`,
    [userId, telegram.id],
  );
  const rows = await tx.query(
    `INSERT INTO ${tables.telegramAccounts} (telegram_user_id, user_id, username)
     VALUES ($1::bigint, $2, $3)
     ON CONFLICT (telegram_user_id) DO UPDATE SET username = EXCLUDED.username
       WHERE ${tables.telegramAccounts}.user_id = EXCLUDED.user_id
     RETURNING user_id`,
    [telegram.id, userId, telegram.username],
  );
  return rows.length === 1;
}

/** Removes the account's Telegram link; answers whether there was one. */
export async function unlinkAccount(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<boolean> {
  const rows = await db.query(
    `DELETE FROM ${tables.telegramAccounts} WHERE user_id = $1 RETURNING user_id`,
    [userId],
  );
  return rows.length > 0;
}

/** The live account a Telegram user is linked to, or `null`. */
export async function findLinkedUser(
  db: SqlQuerier,
  tables: AuthTableNames,
  telegramUserId: string,
): Promise<UserRecord | null> {
  const [row] = await db.query<UserRecord>(
    `SELECT ${userColumns("u")}
     FROM ${tables.telegramAccounts} t
     JOIN ${tables.users} u ON u.id = t.user_id AND u.deleted_at IS NULL
     WHERE t.telegram_user_id = $1::bigint`,
    [telegramUserId],
  );
  return row ?? null;
}

/** The Telegram account linked to a user, or `null`. */
export async function telegramOfUser(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<AuthTelegramAccount | null> {
  const [row] = await db.query<AuthTelegramAccount>(
    `SELECT telegram_user_id::text AS id, username FROM ${tables.telegramAccounts}
     WHERE user_id = $1`,
    [userId],
  );
  return row ?? null;
}

/** A linked account with the entry of its active organization (`o_id` null when none). */
export type TelegramAccountRow =
  & UserRecord
  & { telegramId: string; telegramUsername: string | null }
  & ({ o_id: null } | EntryRow);

/**
 * In one query: the live account a Telegram user is linked to, its Telegram account, and its
 * active organization: that of its most recently used session that has one, else its oldest
 * membership (`o_id` null when it has no live organization).
 */
export async function findTelegramAccount(
  db: SqlQuerier,
  tables: AuthTableNames,
  telegramUserId: string,
): Promise<TelegramAccountRow | null> {
  const [row] = await db.query<TelegramAccountRow>(
    `SELECT ${userColumns("u")}, t.telegram_user_id::text AS "telegramId",
            t.username AS "telegramUsername", ${organizationColumns("o")}, ${memberColumns("m")},
            ${memberAccessColumn(tables, "o", "m")}
     FROM ${tables.telegramAccounts} t
     JOIN ${tables.users} u ON u.id = t.user_id AND u.deleted_at IS NULL
     LEFT JOIN LATERAL (
       SELECT mm.organization_id FROM ${tables.members} mm
       JOIN ${tables.organizations} oo ON oo.id = mm.organization_id AND oo.deleted_at IS NULL
       LEFT JOIN LATERAL (
         SELECT max(coalesce(s.last_used_at, s.created_at)) AS used_at FROM ${tables.sessions} s
         WHERE s.user_id = u.id AND s.active_organization_id = mm.organization_id
       ) used ON true
       WHERE mm.user_id = u.id
       ORDER BY used.used_at DESC NULLS LAST, mm.created_at, mm.id
       LIMIT 1
     ) active ON true
     LEFT JOIN ${tables.organizations} o ON o.id = active.organization_id
     LEFT JOIN ${tables.members} m ON m.organization_id = o.id AND m.user_id = u.id
     WHERE t.telegram_user_id = $1::bigint`,
    [telegramUserId],
  );
  return row ?? null;
}
