/**
 * SQL of deleting an account: the user's memberships (their organizations locked, in id order,
 * like every organization change), the pending invitations to their address, their sessions and
 * tokens, and the tombstone the user row becomes (organizations they created still point at it).
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import { OWNER_ROLE } from "../organizations/options.ts";
import {
  invitationColumns,
  type InvitationRow,
  memberColumns,
  type MemberRow,
} from "../organizations/resources.ts";
import type { AuthTableNames } from "../tables.ts";
import { removeSecondFactors } from "../two_factor/two_factor_store.ts";

/** One membership of the user being deleted, with what decides its fate. */
export interface DeletedMembership {
  member: MemberRow;
  organizationName: string;
  /** Members of the organization, the user included. */
  memberCount: number;
  /** Owners of the organization besides the user. */
  otherOwners: number;
}

/** The user's memberships in live organizations, each organization row locked. */
export async function lockMemberships(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<DeletedMembership[]> {
  // Lock first, in a stable order (as organization changes do), then count.
  await db.query(
    `SELECT o.id FROM ${tables.organizations} o
     WHERE o.deleted_at IS NULL
       AND o.id IN (SELECT organization_id FROM ${tables.members} WHERE user_id = $1)
     ORDER BY o.id FOR UPDATE`,
    [userId],
  );
  const rows = await db.query<
    MemberRow & { o_name: string; member_count: number; other_owners: number }
  >(
    `SELECT ${memberColumns("m")}, o.name AS o_name,
       (SELECT count(*) FROM ${tables.members} x WHERE x.organization_id = m.organization_id)::int
         AS member_count,
       (SELECT count(*) FROM ${tables.members} x
        WHERE x.organization_id = m.organization_id AND x.user_id <> $1 AND x.roles ? $2)::int
         AS other_owners
     FROM ${tables.members} m JOIN ${tables.organizations} o ON o.id = m.organization_id
     WHERE m.user_id = $1 AND o.deleted_at IS NULL
     ORDER BY o.id`,
    [userId, OWNER_ROLE],
  );
  return rows.map((row) => ({
    member: row,
    organizationName: row.o_name,
    memberCount: Number(row.member_count),
    otherOwners: Number(row.other_owners),
  }));
}

/** Deletes every membership of the user; the rows deleted. */
export async function deleteMemberships(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<MemberRow[]> {
  return await db.query<MemberRow>(
    `DELETE FROM ${tables.members} AS m WHERE m.user_id = $1 RETURNING ${memberColumns("m")}`,
    [userId],
  );
}

/** Cancels the pending invitations addressed to `email`; the rows canceled. */
export async function cancelInvitationsTo(
  db: SqlQuerier,
  tables: AuthTableNames,
  email: string,
): Promise<InvitationRow[]> {
  return await db.query<InvitationRow>(
    `UPDATE ${tables.invitations} AS i
     SET status = 'canceled', responded_at = now(), updated_at = now()
     WHERE i.email = $1 AND i.status = 'pending'
     RETURNING ${invitationColumns("i")}`,
    [email],
  );
}

/**
 * Turns the user row into a tombstone: a placeholder address that no sign-in form accepts (it
 * frees the real one), no password, not verified, `deleted_at` set; its sessions, tokens, Telegram
 * link, connected provider accounts and second factors (TOTP, recovery codes, passkeys) go.
 */
export async function tombstoneUser(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
): Promise<void> {
  await db.query(`DELETE FROM ${tables.sessions} WHERE user_id = $1`, [userId]);
  await db.query(`DELETE FROM ${tables.accountTokens} WHERE user_id = $1`, [userId]);
  await db.query(`DELETE FROM ${tables.emailVerifications} WHERE user_id = $1`, [userId]);
  await db.query(`DELETE FROM ${tables.telegramAccounts} WHERE user_id = $1`, [userId]);
  await db.query(`DELETE FROM ${tables.telegramLinkTokens} WHERE user_id = $1`, [userId]);
  await db.query(`DELETE FROM ${tables.identities} WHERE user_id = $1`, [userId]);
  await db.query(`DELETE FROM ${tables.oauthStates} WHERE user_id = $1`, [userId]);
  await removeSecondFactors(db, tables, userId);
  await db.query(
    `UPDATE ${tables.users}
     SET email = 'deleted:' || id::text, password_hash = '', email_verified_at = NULL,
         deleted_at = now(), updated_at = now()
     WHERE id = $1`,
    [userId],
  );
}
