/**
 * The limits of the organizations feature (`organizationLimit`, `membershipLimit`,
 * `invitationLimit`), checked so that concurrent requests cannot overshoot them: each count runs
 * in the transaction that inserts, after a row lock every competing insert takes too (the user's
 * row for the organizations they create, the organization's row for its members and its
 * invitations). In READ COMMITTED each statement sees what committed before it started, so the
 * count that follows the lock sees every insert that held the lock before.
 *
 * @module
 */

import type { HttpError } from "../../core/mod.ts";
import type { SqlQuerier, SqlStatement } from "../../sql/mod.ts";
import { authError } from "../errors.ts";
import type { AuthTableNames } from "../tables.ts";

/**
 * 403 `ORGANIZATION_LIMIT_REACHED` when `userId` already created `limit` live organizations they
 * still belong to (counted through their memberships, which are indexed by user). Locks the
 * user's row `FOR NO KEY UPDATE` until the transaction ends: the user's next creation waits, while
 * inserts that merely reference the user (memberships, sessions) do not.
 */
export async function requireOrganizationRoom(
  tx: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  limit: number | null,
): Promise<void> {
  if (limit === null) return;
  await tx.query(`SELECT 1 FROM ${tables.users} WHERE id = $1 FOR NO KEY UPDATE`, [userId]);
  const [{ count }] = await tx.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM ${tables.members} m
     JOIN ${tables.organizations} o ON o.id = m.organization_id AND o.deleted_at IS NULL
     WHERE m.user_id = $1 AND o.created_by = $1`,
    [userId],
  );
  if (count >= limit) {
    throw authError(
      "ORGANIZATION_LIMIT_REACHED",
      `You can create at most ${limit} organizations; delete one first`,
    );
  }
}

/**
 * Makes way for `userId` to join a live organization: locks its row (`FOR UPDATE` under a
 * `membershipLimit`, so concurrent joins take turns; `FOR SHARE` without one, so only its
 * deletion waits) and counts the other members. Returns `"gone"` when the organization does not
 * exist or is deleted, 403 `MEMBERSHIP_LIMIT_REACHED` when it is full, `null` when the user may
 * join. A user who already is a member is not counted, so the caller still learns why it cannot
 * add them.
 */
export async function admitMember(
  tx: SqlQuerier,
  context: { tables: AuthTableNames; options: { membershipLimit: number | null } },
  organizationId: string,
  userId: string,
): Promise<HttpError | "gone" | null> {
  const { tables, options: { membershipLimit: limit } } = context;
  const mode = limit === null ? "SHARE" : "UPDATE";
  if (!(await lockOrganization(tx, tables, organizationId, mode))) return "gone";
  if (limit === null) return null;
  const [{ count }] = await tx.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM ${tables.members}
     WHERE organization_id = $1 AND user_id <> $2`,
    [organizationId, userId],
  );
  if (count < limit) return null;
  return authError(
    "MEMBERSHIP_LIMIT_REACHED",
    `The organization has reached its limit of ${limit} members`,
  );
}

/**
 * Locks a live organization's row until the transaction ends: `FOR UPDATE` before counting its
 * members (every other join waits), `FOR SHARE` to keep only its deletion out, `FOR KEY SHARE`
 * (what a foreign key's check takes anyway) to take it before the rows that refer to it. `false`
 * when it does not exist or is deleted.
 */
export async function lockOrganization(
  tx: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
  mode: "UPDATE" | "SHARE" | "KEY SHARE",
): Promise<boolean> {
  const { sql, params } = lockOrganizationStatement(tables, organizationId, mode);
  const locked = await tx.query(sql, params);
  return locked.length > 0;
}

/** The statement of {@link lockOrganization}, for a batch (it answers the row when locked). */
export function lockOrganizationStatement(
  tables: AuthTableNames,
  organizationId: string,
  mode: "UPDATE" | "SHARE" | "KEY SHARE",
): SqlStatement {
  return {
    sql: `SELECT id FROM ${tables.organizations} WHERE id = $1 AND deleted_at IS NULL FOR ${mode}`,
    params: [organizationId],
  };
}

/**
 * 403 `INVITATION_LIMIT_REACHED` when the organization already has `limit` pending, unexpired
 * invitations for other emails (re-sending the pending invitation of `email` adds none). The
 * caller holds the organization's row `FOR UPDATE`, as every invitation's creation does.
 */
export async function requireInvitationRoom(
  tx: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
  email: string,
  limit: number | null,
): Promise<void> {
  if (limit === null) return;
  const [{ count }] = await tx.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM ${tables.invitations}
     WHERE organization_id = $1 AND status = 'pending' AND expires_at > now() AND email <> $2`,
    [organizationId, email],
  );
  if (count >= limit) {
    throw authError(
      "INVITATION_LIMIT_REACHED",
      `The organization has reached its limit of ${limit} pending invitations; ` +
        "cancel some or wait for answers",
    );
  }
}
