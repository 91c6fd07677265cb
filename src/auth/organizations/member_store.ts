/**
 * SQL of memberships. Every query is scoped by organization id: a member id of another
 * organization is simply not found.
 *
 * @module
 */

import { keysetPage, keysetQuery, type Page } from "../../pagination/mod.ts";
import type { SqlQuerier } from "../../sql/mod.ts";
import { CREATED_AT_ID } from "./page_order.ts";
import type { AuthTableNames } from "../tables.ts";
import { isUuid } from "../user_store.ts";
import { type Member, memberColumns, type MemberRow, toMember } from "./resources.ts";
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
  request: { pageSize?: string; cursor?: string },
  secret: string,
): Promise<Page<Member>> {
  const q = keysetQuery({
    listId: `members:${organizationId}`,
    columns: CREATED_AT_ID,
    secret,
    table: "m",
    pageSize: request.pageSize,
    cursor: request.cursor,
    firstParam: 2,
  });
  const rows = await db.query<MemberRow>(
    `SELECT ${memberColumns("m")}, ${q.select} FROM ${tables.members} m
     WHERE m.organization_id = $1 AND ${q.where}
     ORDER BY ${q.orderBy} LIMIT ${q.limit}`,
    [organizationId, ...q.params],
  );
  const page = keysetPage(rows, q);
  return { ...page, items: page.items.map(toMember) };
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
