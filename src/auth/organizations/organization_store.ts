/**
 * SQL of organizations (and of an organization joined with the caller's membership: an entry). Every query that reads an organization filters
 * `deleted_at IS NULL`, so a soft-deleted organization is invisible to every read and write.
 *
 * @module
 */

import type { Page } from "../../pagination/mod.ts";
import { SqlError, type SqlQuerier } from "../../sql/mod.ts";
import { CREATED_AT_ID } from "./page_order.ts";
import { keysetList, type PageRequest } from "../../pagination/mod.ts";
import type { JsonValue } from "../../schema/mod.ts";
import { authError } from "../errors.ts";
import type { AuthTableNames } from "../tables.ts";
import { isUuid } from "../account/user_store.ts";
import type { PermissionModel } from "./permissions.ts";
import {
  type AuthOrganizationAccess,
  type AuthOrganizationEntry,
  memberAccessColumn,
  memberColumns,
  type MemberRow,
  organizationColumns,
  type OrganizationRow,
  toMember,
  toOrganization,
} from "./resources.ts";

/**
 * An organization with a membership in it, as rows, and what the member may do there
 * (`e_access`, selected by `memberAccessColumn`).
 */
export type EntryRow = OrganizationRow & MemberRow & { e_access: AuthOrganizationAccess };

/**
 * The entry of a joined organization/member row, with the member's effective permissions: none
 * while a second factor they lack keeps them out.
 */
export function toEntry(row: EntryRow, permissions: PermissionModel): AuthOrganizationEntry {
  return {
    organization: toOrganization(row),
    member: toMember(row),
    permissions: row.e_access === "member" ? permissions.of(row.m_roles) : [],
    access: row.e_access,
  };
}

function slugTaken(error: unknown): boolean {
  return error instanceof SqlError && error.code === "23505" &&
    (error.constraint ?? "").includes("slug");
}

/** Inserts an organization; a taken slug (deleted organizations included) is 409 `SLUG_TAKEN`. */
export async function insertOrganization(
  db: SqlQuerier,
  tables: AuthTableNames,
  input: {
    name: string;
    slug: string;
    logoUrl: string | null;
    metadata: JsonValue | null;
    createdBy: string;
  },
): Promise<OrganizationRow> {
  try {
    const [row] = await db.query<OrganizationRow>(
      `INSERT INTO ${tables.organizations} AS o (name, slug, logo_url, metadata, created_by)
       VALUES ($1, $2, $3, $4::text::jsonb, $5)
       RETURNING ${organizationColumns("o")}`,
      [input.name, input.slug, input.logoUrl, jsonParam(input.metadata), input.createdBy],
    );
    return row;
  } catch (error) {
    if (slugTaken(error)) throw authError("SLUG_TAKEN", `Slug "${input.slug}" is taken`);
    throw error;
  }
}

/** A JSON value as a text parameter (`$n::text::jsonb`), SQL NULL for `null`. */
export function jsonParam(value: JsonValue | null | undefined): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/**
 * The caller's entry in a live organization, or `null` (no such organization, deleted, or not a
 * member: the caller cannot tell which), with what they may do there (`e_access`: whether the
 * organization requires a second factor they lack, read in the same statement). `lock` first takes the organization row FOR UPDATE (or
 * FOR SHARE) until the transaction ends, which serializes every membership change of one
 * organization; the entry is then read by a fresh statement, so it reflects whatever a
 * concurrent change committed while this one waited (the last-owner rule depends on it).
 */
export async function findEntry(
  db: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
  userId: string,
  lock: "none" | "update" | "share" = "none",
): Promise<EntryRow | null> {
  if (!isUuid(organizationId)) return null;
  if (lock !== "none") {
    const locked = await db.query(
      `SELECT id FROM ${tables.organizations} WHERE id = $1 AND deleted_at IS NULL
       FOR ${lock === "update" ? "UPDATE" : "SHARE"}`,
      [organizationId],
    );
    if (locked.length === 0) return null;
  }
  const [row] = await db.query<EntryRow>(
    `SELECT ${organizationColumns("o")}, ${memberColumns("m")},
       ${memberAccessColumn(tables, "o", "m")}
     FROM ${tables.organizations} o
     JOIN ${tables.members} m ON m.organization_id = o.id AND m.user_id = $2
     WHERE o.id = $1 AND o.deleted_at IS NULL`,
    [organizationId, userId],
  );
  return row ?? null;
}

/** One page of a user's live organizations, oldest first; deleted ones are filtered in SQL. */
export async function pageEntries(
  db: SqlQuerier,
  tables: AuthTableNames,
  userId: string,
  request: PageRequest,
  secret: string,
  permissions: PermissionModel,
): Promise<Page<AuthOrganizationEntry>> {
  return await keysetList(db, {
    listId: `organizations:${userId}`,
    columns: CREATED_AT_ID,
    secret,
    table: "o",
    pageSize: request.pageSize,
    cursor: request.cursor,
    select: `${organizationColumns("o")}, ${memberColumns("m")},
      ${memberAccessColumn(tables, "o", "m")}`,
    from: `${tables.members} m
     JOIN ${tables.organizations} o ON o.id = m.organization_id AND o.deleted_at IS NULL`,
    where: ["m.user_id = $1"],
    params: [userId],
    map: (row: EntryRow) => toEntry(row, permissions),
  });
}

/** Updates the given fields of a live organization; a taken slug is 409 `SLUG_TAKEN`. */
export async function updateOrganization(
  db: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
  changes: {
    name?: string;
    slug?: string;
    logoUrl?: string | null;
    metadata?: JsonValue | null;
    requireTwoFactor?: boolean;
  },
): Promise<OrganizationRow | null> {
  const sets: string[] = [];
  const params: unknown[] = [organizationId];
  const set = (column: string, value: unknown, cast = ""): void => {
    params.push(value);
    sets.push(`${column} = $${params.length}${cast}`);
  };
  if (changes.name !== undefined) set("name", changes.name);
  if (changes.slug !== undefined) set("slug", changes.slug);
  if (changes.logoUrl !== undefined) set("logo_url", changes.logoUrl);
  if (changes.metadata !== undefined) set("metadata", jsonParam(changes.metadata), "::text::jsonb");
  if (changes.requireTwoFactor !== undefined) set("require_two_factor", changes.requireTwoFactor);
  try {
    const [row] = await db.query<OrganizationRow>(
      `UPDATE ${tables.organizations} AS o SET ${sets.join(", ")}, updated_at = now()
       WHERE o.id = $1 AND o.deleted_at IS NULL
       RETURNING ${organizationColumns("o")}`,
      params,
    );
    return row ?? null;
  } catch (error) {
    if (slugTaken(error)) throw authError("SLUG_TAKEN", `Slug "${changes.slug}" is taken`);
    throw error;
  }
}

/** Soft-deletes a live organization; `null` if it was already gone. */
export async function softDeleteOrganization(
  db: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
): Promise<OrganizationRow | null> {
  const [row] = await db.query<OrganizationRow>(
    `UPDATE ${tables.organizations} AS o SET deleted_at = now(), updated_at = now()
     WHERE o.id = $1 AND o.deleted_at IS NULL
     RETURNING ${organizationColumns("o")}`,
    [organizationId],
  );
  return row ?? null;
}
