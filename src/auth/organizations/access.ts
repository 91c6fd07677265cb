/**
 * Who may do what inside an organization. Non-members get 404 for everything inside an
 * organization (they cannot tell a missing organization from one they are not in); members
 * without the needed role get 403.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import { authError, notFound } from "../errors.ts";
import type { AuthTableNames } from "../tables.ts";
import { type EntryRow, findEntry } from "./organization_store.ts";
import { ADMIN_ROLE, OWNER_ROLE } from "./options.ts";

/** Whether a role list contains `owner`. */
export function hasOwner(roles: readonly string[]): boolean {
  return roles.includes(OWNER_ROLE);
}

/** Whether a role list may manage the organization (owner or admin). */
export function canManage(roles: readonly string[]): boolean {
  return roles.includes(OWNER_ROLE) || roles.includes(ADMIN_ROLE);
}

/**
 * The caller's entry in a live organization, or 404 `NOT_FOUND`. With `lock: "update"` the
 * organization row stays locked until the transaction ends.
 */
export async function requireEntry(
  db: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
  userId: string,
  lock: "none" | "update" | "share" = "none",
): Promise<EntryRow> {
  const entry = await findEntry(db, tables, organizationId, userId, lock);
  if (!entry) throw notFound("Organization");
  return entry;
}

/** 403 `FORBIDDEN` unless the caller is an owner or an admin. */
export function requireManager(entry: EntryRow, action: string): void {
  if (!canManage(entry.m_roles)) {
    throw authError("FORBIDDEN", `Only owners and admins may ${action}`);
  }
}

/** 403 `FORBIDDEN` unless the caller is an owner. */
export function requireOwner(entry: EntryRow, action: string): void {
  if (!hasOwner(entry.m_roles)) throw authError("FORBIDDEN", `Only owners may ${action}`);
}

/**
 * Whether an inviter whose current roles are `inviterRoles` (`null`: no longer a member) may still
 * grant `roles`: checked when an invitation is accepted, so an invitation dies with its inviter's
 * rights (an owner or admin, and an owner for an invitation granting `owner`).
 */
export function mayStillGrant(
  inviterRoles: readonly string[] | null,
  roles: readonly string[],
): boolean {
  if (inviterRoles === null || !canManage(inviterRoles)) return false;
  return !hasOwner(roles) || hasOwner(inviterRoles);
}
