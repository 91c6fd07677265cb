/**
 * Who may do what inside an organization. Non-members get 404 for everything inside an
 * organization (they cannot tell a missing organization from one they are not in); members
 * without the needed permission (`organizations.permissions`) get 403. In an organization that
 * requires a second factor (`requireTwoFactor`), members without one get 403
 * `TWO_FACTOR_REQUIRED` for everything but leaving it (and an owner may turn the requirement off):
 * the check runs where the caller's membership is read ({@link requireEntry}), from the same
 * statement.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import { authError, notFound } from "../errors.ts";
import type { AuthTableNames } from "../tables.ts";
import { type EntryRow, findEntry } from "./organization_store.ts";
import { OWNER_ROLE } from "./options.ts";
import type { PermissionModel } from "./permissions.ts";

/** Whether a role list contains `owner`. */
export function hasOwner(roles: readonly string[]): boolean {
  return roles.includes(OWNER_ROLE);
}

/**
 * When {@link requireEntry} checks an organization's second-factor requirement: `"now"`, or
 * `"deferred"` for the operations that let a member without a second factor through in some
 * cases (leaving; an owner turning the requirement off), which call {@link requireSecondFactor}
 * themselves in the others.
 */
export type SecondFactorCheck = "now" | "deferred";

/**
 * The caller's entry in a live organization, or 404 `NOT_FOUND`; 403 `TWO_FACTOR_REQUIRED` when
 * the organization requires a second factor the caller lacks (unless `secondFactor` is
 * `"deferred"`). With `lock: "update"` the organization row stays locked until the transaction
 * ends.
 */
export async function requireEntry(
  db: SqlQuerier,
  tables: AuthTableNames,
  organizationId: string,
  userId: string,
  lock: "none" | "update" | "share" = "none",
  secondFactor: SecondFactorCheck = "now",
): Promise<EntryRow> {
  const entry = await findEntry(db, tables, organizationId, userId, lock);
  if (!entry) throw notFound("Organization");
  if (secondFactor === "now") requireSecondFactor(entry);
  return entry;
}

/**
 * 403 `TWO_FACTOR_REQUIRED` when the entry's organization requires a second factor (TOTP or a
 * passkey) and the caller has none.
 */
export function requireSecondFactor(entry: EntryRow): void {
  if (entry.e_access === "twoFactorRequired") {
    throw authError(
      "TWO_FACTOR_REQUIRED",
      "This organization requires a second factor: enable TOTP or add a passkey to your account",
    );
  }
}

/** 403 `FORBIDDEN` unless the caller's roles hold `permission` (`organizations.permissions`). */
export function requirePermission(
  model: PermissionModel,
  roles: readonly string[],
  permission: string,
): void {
  if (!model.has(roles, permission)) {
    throw authError("FORBIDDEN", `Your roles do not have the permission "${permission}"`);
  }
}

/**
 * 403 `FORBIDDEN` unless the caller's roles may grant `granted`: an owner for `owner`, and
 * every permission of each granted role held by the caller (no escalation).
 */
export function requireGrant(
  model: PermissionModel,
  roles: readonly string[],
  granted: readonly string[],
): void {
  if (hasOwner(granted) && !hasOwner(roles)) {
    throw authError("FORBIDDEN", "Only owners may grant the owner role");
  }
  if (!model.mayGrant(roles, granted)) {
    throw authError(
      "FORBIDDEN",
      "You may only grant roles whose every permission you hold yourself",
    );
  }
}

/** 403 `FORBIDDEN` unless the caller is an owner. */
export function requireOwner(entry: EntryRow, action: string): void {
  if (!hasOwner(entry.m_roles)) throw authError("FORBIDDEN", `Only owners may ${action}`);
}

/**
 * Whether an inviter whose current roles are `inviterRoles` (`null`: no longer a member) may still
 * grant `roles`: checked when an invitation is accepted, so an invitation dies with its inviter's
 * rights (`invitation:create`, every permission of the roles, an owner for `owner`).
 */
export function mayStillGrant(
  model: PermissionModel,
  inviterRoles: readonly string[] | null,
  roles: readonly string[],
): boolean {
  if (inviterRoles === null || !model.has(inviterRoles, "invitation:create")) return false;
  return model.mayGrant(inviterRoles, roles);
}
