/**
 * SQL of a user's sessions as they see them (`GET /sessions`) and of their revocation. Every
 * statement is filtered by the user's id: a session id of another user matches nothing.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import { isUuid } from "./user_store.ts";

/** How many sessions `GET /sessions` lists at most (the most recently used first). */
export const SESSION_LIST_LIMIT = 100;

/** A session row as listed. */
export interface ListedSessionRow {
  id: string;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date;
  user_agent: string | null;
}

/** The user's unexpired sessions, the most recently used first. */
export async function listUserSessions(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<ListedSessionRow[]> {
  return await db.query<ListedSessionRow>(
    `SELECT id, created_at, last_used_at, expires_at, user_agent FROM ${tables.sessions}
     WHERE user_id = $1 AND expires_at > now()
     ORDER BY coalesce(last_used_at, created_at) DESC, id
     LIMIT ${SESSION_LIST_LIMIT}`,
    [userId],
  );
}

/** Deletes one session of the user; whether it existed (another user's id: `false`). */
export async function revokeUserSession(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  sessionId: string,
): Promise<boolean> {
  if (!isUuid(sessionId)) return false;
  const rows = await db.query(
    `DELETE FROM ${tables.sessions} WHERE id = $1 AND user_id = $2 RETURNING id`,
    [sessionId, userId],
  );
  return rows.length > 0;
}

/** Deletes every session of the user but `keepSessionId` (all when `null`); the ids deleted. */
export async function revokeUserSessionsExcept(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  keepSessionId: string | null,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `DELETE FROM ${tables.sessions}
     WHERE user_id = $1 AND ($2::uuid IS NULL OR id <> $2::uuid) RETURNING id`,
    [userId, keepSessionId],
  );
  return rows.map((row) => row.id);
}

/**
 * Records that a session was used, at most once a minute (the condition is re-checked on the
 * database clock, so concurrent requests write once).
 */
export async function touchSession(
  db: SqlQuerier,
  tables: AuthTableNames,
  sessionId: string,
): Promise<void> {
  await db.query(
    `UPDATE ${tables.sessions} SET last_used_at = now()
     WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [sessionId],
  );
}
