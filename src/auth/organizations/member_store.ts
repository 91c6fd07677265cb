/**
 * SQL of memberships. Every query is scoped by organization id: a member id of another
 * organization is simply not found.
 *
 * @module
 */

import { keysetList, type Page, type PageRequest } from "../../pagination/mod.ts";
import type { SqlQuerier } from "../../sql/mod.ts";
import { CREATED_AT_ID } from "./page_order.ts";
import type { AuthTableNames } from "../tables.ts";
import { isUuid } from "../account/user_store.ts";
import { type AuthMember, memberColumns, type MemberRow, toMember } from "./resources.ts";
import { OWNER_ROLE } from "./options.ts";

/** A member of an organization by member id, or `null`. */
export async function findMember(
  db: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
  memberId: string,
): Promise<MemberRow | null> {
  if (!isUuid(memberId)) return null;
  const [row] = await db.query<MemberRow>(
    `SELECT ${memberColumns("m")} FROM ${tables.members} m
     WHERE m.organization_id = $1 AND m.id = $2`,
    [organizationId, memberId],
  );
  return row ?? null;
}

/** One page of an organization's members, oldest first. */
export async function pageMembers(
  db: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
  request: PageRequest,
  secret: string,
): Promise<Page<AuthMember>> {
  return await keysetList(db, {
    listId: `members:${organizationId}`,
    columns: CREATED_AT_ID,
    secret,
    table: "m",
    pageSize: request.pageSize,
    cursor: request.cursor,
    select: memberColumns("m"),
    from: `${tables.members} m`,
    where: ["m.organization_id = $1"],
    params: [organizationId],
    map: toMember,
  });
}

/** Replaces a member's roles. */
export async function updateMemberRoles(
  db: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
  memberId: string,
  roles: readonly string[],
): Promise<MemberRow> {
  const [row] = await db.query<MemberRow>(
    `UPDATE ${tables.members} AS m SET roles = $3::text::jsonb, updated_at = now()
     WHERE m.organization_id = $1 AND m.id = $2
     RETURNING ${memberColumns("m")}`,
    [organizationId, memberId, JSON.stringify(roles)],
  );
  return row;
}

/** Removes a member. */
export async function deleteMember(
  db: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
  memberId: string,
): Promise<void> {
  await db.query(
    `DELETE FROM ${tables.members} WHERE organization_id = $1 AND id = $2`,
    [organizationId, memberId],
  );
}

/**
 * How many owners the organization has besides `exceptMemberId`. Run it while holding the
 * organization's row lock (see `findEntry(…, "update")`) so concurrent demotions serialize.
 */
export async function countOtherOwners(
  db: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
  exceptMemberId: string,
): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${tables.members}
     WHERE organization_id = $1 AND id <> $2 AND roles @> $3::text::jsonb`,
    [organizationId, exceptMemberId, JSON.stringify([OWNER_ROLE])],
  );
  return row.n;
}

/** Inserts a membership; `null` when the user already is a member. */
export async function insertMember(
  db: SqlQuerier,
  tables: AuthTableNames,
  input: { organizationId: string; userId: string; roles: readonly string[] },
): Promise<MemberRow | null> {
  const [row] = await db.query<MemberRow>(
    `INSERT INTO ${tables.members} AS m (organization_id, user_id, roles)
     VALUES ($1, $2, $3::text::jsonb)
     ON CONFLICT (organization_id, user_id) DO NOTHING
     RETURNING ${memberColumns("m")}`,
    [input.organizationId, input.userId, JSON.stringify(input.roles)],
  );
  return row ?? null;
}

/** Whether the user with this email is a member of the organization. */
export async function isMemberByEmail(
  db: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
  email: string,
): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM ${tables.members} m JOIN ${tables.users} u ON u.id = m.user_id
     WHERE m.organization_id = $1 AND u.email = $2`,
    [organizationId, email],
  );
  return rows.length > 0;
}
