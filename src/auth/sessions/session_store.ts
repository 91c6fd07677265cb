/**
 * Sessions: one row per issued credential, found by the SHA-256 of its token.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import type { AuthSession } from "./session.ts";
import type { AuthUser } from "../account/user.ts";
import { storageProblem } from "../account/well_formed.ts";

/** A session with its user, as one query finds them. */
export interface SessionWithUser {
  session: AuthSession;
  user: AuthUser;
  /** When the session was last used (written at most once a minute), `null` if never recorded. */
  lastUsedAt: Date | null;
}

/** Inserts a session expiring `ttlSeconds` from now (database clock). */
export async function insertSession(
  db: SqlQuerier,
  tables: AuthTableNames,
  session: {
    userId: string;
    tokenHash: string;
    ttlSeconds: number;
    activeOrganizationId: string | null;
    /** The User-Agent of the request that signed in (kept to 512 characters), if any. */
    userAgent?: string | null;
  },
): Promise<AuthSession> {
  const userAgent = session.userAgent ? [...session.userAgent].slice(0, 512).join("") : null;
  const [row] = await db.query<{ id: string; expires_at: Date }>(
    `INSERT INTO ${tables.sessions}
       (user_id, token_hash, expires_at, active_organization_id, user_agent, last_used_at)
     VALUES ($1, $2, now() + $3::float8 * interval '1 second', $4, $5, now())
     RETURNING id, expires_at`,
    [
      session.userId,
      session.tokenHash,
      session.ttlSeconds,
      session.activeOrganizationId,
      userAgent === null || storageProblem(userAgent) !== null ? null : userAgent,
    ],
  );
  return {
    id: row.id,
    userId: session.userId,
    expiresAt: row.expires_at,
    activeOrganizationId: session.activeOrganizationId,
  };
}

interface SessionRow {
  session_id: string;
  last_used_at: Date | null;
  expires_at: Date;
  active_organization_id: string | null;
  user_id: string;
  email: string;
  role: string;
  email_verified: boolean;
}

/**
 * The unexpired sessions with these token hashes and their users, in the order of `tokenHashes`
 * (`null` for each unknown, expired or signed-out one): one statement for all, so that the
 * requests that arrive together share it (see `createAuthenticator`).
 */
export async function findSessions(
  db: SqlQuerier,
  tables: AuthTableNames,
  tokenHashes: readonly string[],
): Promise<(SessionWithUser | null)[]> {
  const rows = await db.query<SessionRow & { i: string }>(
    `SELECT k.i, s.id AS session_id, s.expires_at, s.active_organization_id, s.last_used_at,
            u.id AS user_id, u.email, u.role,
            (u.email_verified_at IS NOT NULL) AS email_verified
     FROM unnest($1::text[]) WITH ORDINALITY AS k(token_hash, i)
     JOIN ${tables.sessions} s ON s.token_hash = k.token_hash AND s.expires_at > now()
     JOIN ${tables.users} u ON u.id = s.user_id`,
    [tokenHashes],
  );
  const found: (SessionWithUser | null)[] = tokenHashes.map(() => null);
  for (const row of rows) found[Number(row.i) - 1] = sessionWithUser(row);
  return found;
}

function sessionWithUser(row: SessionRow): SessionWithUser {
  return {
    session: {
      id: row.session_id,
      userId: row.user_id,
      expiresAt: row.expires_at,
      activeOrganizationId: row.active_organization_id,
    },
    user: {
      id: row.user_id,
      email: row.email,
      role: row.role,
      emailVerified: row.email_verified,
    },
    lastUsedAt: row.last_used_at,
  };
}

/**
 * Pushes a session's expiry to `ttlSeconds` from now when less than half of it remains (sliding
 * renewal); returns the new expiry, or `null` when no renewal was due.
 */
export async function renewSession(
  db: SqlQuerier,
  tables: AuthTableNames,
  sessionId: string,
  ttlSeconds: number,
): Promise<Date | null> {
  const [row] = await db.query<{ expires_at: Date }>(
    `UPDATE ${tables.sessions} SET expires_at = now() + $2::float8 * interval '1 second'
     WHERE id = $1 AND expires_at > now()
       AND expires_at < now() + $2::float8 / 2 * interval '1 second'
     RETURNING expires_at`,
    [sessionId, ttlSeconds],
  );
  return row?.expires_at ?? null;
}

/** Ends one session. */
export async function deleteSession(
  db: SqlQuerier,
  tables: AuthTableNames,
  sessionId: string,
): Promise<void> {
  await db.query(`DELETE FROM ${tables.sessions} WHERE id = $1`, [sessionId]);
}

/** Ends every session of a user; returns how many there were. */
export async function deleteUserSessions(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<number> {
  const rows = await db.query(
    `DELETE FROM ${tables.sessions} WHERE user_id = $1 RETURNING id`,
    [userId],
  );
  return rows.length;
}

/** Points one session at an organization (or at none); the caller checked the membership. */
export async function setActiveOrganization(
  db: SqlQuerier,
  tables: AuthTableNames,
  sessionId: string,
  organizationId: string | null,
): Promise<void> {
  await db.query(
    `UPDATE ${tables.sessions} SET active_organization_id = $2 WHERE id = $1`,
    [sessionId, organizationId],
  );
}

/**
 * Points a session at an organization only if it points at none (creating an organization or
 * accepting an invitation never takes a credential away from the organization it works in).
 * Returns whether it changed.
 */
export async function setActiveOrganizationIfNone(
  db: SqlQuerier,
  tables: AuthTableNames,
  sessionId: string,
  organizationId: string,
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE ${tables.sessions} SET active_organization_id = $2
     WHERE id = $1 AND active_organization_id IS NULL RETURNING id`,
    [sessionId, organizationId],
  );
  return rows.length > 0;
}

/** Clears the active organization of sessions: all pointing at it, or only those of one user. */
export async function clearActiveOrganization(
  db: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
  userId?: string,
): Promise<void> {
  if (userId === undefined) {
    await db.query(
      `UPDATE ${tables.sessions} SET active_organization_id = NULL
       WHERE active_organization_id = $1`,
      [organizationId],
    );
  } else {
    await db.query(
      `UPDATE ${tables.sessions} SET active_organization_id = NULL
       WHERE active_organization_id = $1 AND user_id = $2`,
      [organizationId, userId],
    );
  }
}
