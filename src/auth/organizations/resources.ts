/**
 * The resources of the organizations API as JSON (string ids, ISO 8601 UTC timestamps) and the
 * SQL select lists that read them.
 *
 * @module
 */

import type { JsonValue } from "../../schema/mod.ts";
import type { AuthTableNames } from "../tables.ts";

/**
 * An organization as the API shows it.
 *
 * @example
 * ```ts
 * import type { AuthOrganization } from "@app/fragment-cli/auth";
 *
 * const organization: AuthOrganization = {
 *   id: "0c7a…", name: "Acme", slug: "acme", logoUrl: null, metadata: null,
 *   requireTwoFactor: false, createdBy: "5f0c…", createdAt: "2026-11-21T15:05:58.123Z",
 *   updatedAt: "2026-11-21T15:05:58.123Z", deletedAt: null,
 * };
 * ```
 */
export interface AuthOrganization {
  /** Its id (a UUID). */
  id: string;
  /** The display name. */
  name: string;
  /** The unique, URL-safe slug. */
  slug: string;
  /** An http or https URL, or `null`. */
  logoUrl: string | null;
  /** Any JSON value the application keeps on it, or `null`. */
  metadata: JsonValue | null;
  /**
   * Whether its members need a second factor (TOTP or a passkey) to act in it: without one, its
   * routes answer 403 `TWO_FACTOR_REQUIRED` (their entries say `access: "twoFactorRequired"`).
   */
  requireTwoFactor: boolean;
  /** The id of the user who created it. */
  createdBy: string;
  /** When it was created (ISO 8601 UTC). */
  createdAt: string;
  /** When it last changed (ISO 8601 UTC). */
  updatedAt: string;
  /** When it was deleted (ISO 8601 UTC), `null` while it lives. */
  deletedAt: string | null;
}

/**
 * A membership as the API shows it.
 *
 * @example
 * ```ts
 * import type { AuthMember } from "@app/fragment-cli/auth";
 *
 * const member: AuthMember = {
 *   id: "9d1e…", organizationId: "0c7a…", userId: "5f0c…", roles: ["owner"],
 *   createdAt: "2026-11-21T15:05:58.123Z", updatedAt: "2026-11-21T15:05:58.123Z",
 * };
 * ```
 */
export interface AuthMember {
  /** The membership's id (not the user's). */
  id: string;
  /** The organization's id. */
  organizationId: string;
  /** The member's user id. */
  userId: string;
  /** The member's roles, among `organizations.roles`. */
  roles: string[];
  /** When the membership began (ISO 8601 UTC). */
  createdAt: string;
  /** When its roles last changed (ISO 8601 UTC). */
  updatedAt: string;
}

/**
 * What the current user may do in an organization they are a member of:
 * - `"member"`: act in it, as far as their `permissions` go;
 * - `"twoFactorRequired"`: nothing until they have a second factor, because the organization
 *   requires one (`requireTwoFactor`) and their account has none. Its routes answer 403
 *   `TWO_FACTOR_REQUIRED` (leaving it excepted, and owners may still turn the requirement off),
 *   and the entry's `permissions` are empty.
 *
 * @example
 * ```ts
 * import type { AuthOrganizationAccess } from "@app/fragment-cli/auth";
 *
 * const usable: AuthOrganizationAccess[] = ["member"];
 * ```
 */
export type AuthOrganizationAccess = "member" | "twoFactorRequired";

/**
 * An organization with the current user's membership in it.
 *
 * @example
 * ```ts
 * import type { AuthOrganizationEntry } from "@app/fragment-cli/auth";
 *
 * const response = await fetch("/api/auth/organizations");
 * const { organizations }: { organizations: AuthOrganizationEntry[] } = await response.json();
 * const owned = organizations.filter(({ member }) => member.roles.includes("owner"));
 * const canInvite = organizations.filter(({ permissions }) => permissions.includes("invitation:create"));
 * const needSecondFactor = organizations.filter(({ access }) => access === "twoFactorRequired");
 * ```
 */
export interface AuthOrganizationEntry {
  /** The organization. */
  organization: AuthOrganization;
  /** The current user's membership in it. */
  member: AuthMember;
  /**
   * The current user's effective permissions there (`organizations.permissions`, the union of
   * their roles'), sorted: gate the UI on them (`permissions.includes("invitation:create")`).
   * Empty while `access` is `"twoFactorRequired"`.
   */
  permissions: string[];
  /** Whether the current user may act in it now (see {@link AuthOrganizationAccess}). */
  access: AuthOrganizationAccess;
}

/**
 * Where an invitation stands: `pending` until answered or past its expiry (then `expired`).
 *
 * @example
 * ```ts
 * import type { AuthInvitationStatus } from "@app/fragment-cli/auth";
 *
 * const open: AuthInvitationStatus[] = ["pending"];
 * ```
 */
export type AuthInvitationStatus = "pending" | "accepted" | "rejected" | "canceled" | "expired";

/**
 * An invitation as the API shows it. `token` is present in the inviter's creation (or re-send)
 * answer and the `invitationCreated` event only; the database keeps its SHA-256.
 *
 * @example
 * ```ts
 * import type { AuthInvitation } from "@app/fragment-cli/auth";
 *
 * const response = await fetch("/api/auth/organizations/0c7a/invitations", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ email: "grace@example.com" }),
 * });
 * const { invitation }: { invitation: AuthInvitation } = await response.json();
 * const link = `https://app.example.com/join/${invitation.id}?token=${invitation.token}`;
 * ```
 */
export interface AuthInvitation {
  /** Its id (a UUID). */
  id: string;
  /** The organization it invites to. */
  organizationId: string;
  /** The invitee's address. */
  email: string;
  /** The roles accepting grants. */
  roles: string[];
  /** Where it stands. */
  status: AuthInvitationStatus;
  /** The id of the user who invited. */
  inviterId: string;
  /** When it expires (ISO 8601 UTC). */
  expiresAt: string;
  /** When it was created (ISO 8601 UTC). */
  createdAt: string;
  /** When it was accepted, rejected or canceled (ISO 8601 UTC), else `null`. */
  respondedAt: string | null;
  /** The token to pass on to the invitee: in the creation (or re-send) answer only. */
  token?: string;
}

/**
 * An invitation with the organization it invites to (the invitee's view).
 *
 * @example
 * ```ts
 * import type { AuthInvitationEntry } from "@app/fragment-cli/auth";
 *
 * const response = await fetch("/api/auth/organizations/invitations");
 * const { invitations }: { invitations: AuthInvitationEntry[] } = await response.json();
 * for (const { invitation, organization } of invitations) {
 *   console.log(organization.name, invitation.roles);
 * }
 * ```
 */
export interface AuthInvitationEntry {
  /** The invitation. */
  invitation: AuthInvitation;
  /** The organization it invites to. */
  organization: AuthOrganization;
}

/** An organization row as {@link organizationColumns} selects it. */
export interface OrganizationRow {
  o_id: string;
  o_name: string;
  o_slug: string;
  o_logo_url: string | null;
  o_metadata: JsonValue | null;
  o_require_two_factor: boolean;
  o_created_by: string;
  o_created_at: Date;
  o_updated_at: Date;
  o_deleted_at: Date | null;
}

/** A member row as {@link memberColumns} selects it. */
export interface MemberRow {
  m_id: string;
  m_organization_id: string;
  m_user_id: string;
  m_roles: string[];
  m_created_at: Date;
  m_updated_at: Date;
}

/** An invitation row as {@link invitationColumns} selects it. */
export interface InvitationRow {
  i_id: string;
  i_organization_id: string;
  i_email: string;
  i_roles: string[];
  i_status: AuthInvitationStatus;
  i_token_hash: string;
  i_inviter_id: string;
  i_expires_at: Date;
  i_created_at: Date;
  i_responded_at: Date | null;
}

/** The select list of an organization aliased `alias`, prefixed `o_`. */
export function organizationColumns(alias: string): string {
  return [
    "id",
    "name",
    "slug",
    "logo_url",
    "metadata",
    "require_two_factor",
    "created_by",
    "created_at",
    "updated_at",
    "deleted_at",
  ].map((c) => `${alias}.${c} AS o_${c}`).join(", ");
}

/**
 * The SQL of an entry's {@link AuthOrganizationAccess} for the organization aliased `o`, given
 * `secondFactor`, a boolean SQL expression saying whether the member has a second factor. A
 * `CASE` evaluates it only for an organization that requires one, so the others pay nothing.
 */
export function accessSql(o: string, secondFactor: string): string {
  return `CASE WHEN NOT ${o}.require_two_factor THEN 'member' WHEN ${secondFactor} THEN 'member' ` +
    `ELSE 'twoFactorRequired' END`;
}

/**
 * {@link accessSql} for the member aliased `m`, whose second factor is read from the users table
 * (`two_factor_enabled`), as the column `e_access`.
 */
export function memberAccessColumn(tables: AuthTableNames, o: string, m: string): string {
  const secondFactor = `EXISTS (SELECT 1 FROM ${tables.users} au ` +
    `WHERE au.id = ${m}.user_id AND au.two_factor_enabled)`;
  return `${accessSql(o, secondFactor)} AS e_access`;
}

/** The select list of a member aliased `alias`, prefixed `m_`. */
export function memberColumns(alias: string): string {
  return ["id", "organization_id", "user_id", "roles", "created_at", "updated_at"]
    .map((c) => `${alias}.${c} AS m_${c}`).join(", ");
}

/**
 * The select list of an invitation aliased `alias`, prefixed `i_`. A pending invitation past its
 * expiry reads as `expired` even before a worker or a request marks it so.
 */
export function invitationColumns(alias: string): string {
  const plain = [
    "id",
    "organization_id",
    "email",
    "roles",
    "token_hash",
    "inviter_id",
    "expires_at",
    "created_at",
    "responded_at",
  ].map((c) => `${alias}.${c} AS i_${c}`);
  const status = `CASE WHEN ${alias}.status = 'pending' AND ${alias}.expires_at <= now() ` +
    `THEN 'expired' ELSE ${alias}.status END AS i_status`;
  return [...plain, status].join(", ");
}

function iso(value: Date): string {
  return value.toISOString();
}

/**
 * The SQL of {@link iso} for a `timestamptz` expression: the same text as `toISOString()` of the
 * value read back (both keep whole milliseconds, dropping the microseconds).
 */
export function isoSql(expression: string): string {
  return `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** The JSON of an organization row. */
export function toOrganization(row: OrganizationRow): AuthOrganization {
  return {
    id: row.o_id,
    name: row.o_name,
    slug: row.o_slug,
    logoUrl: row.o_logo_url,
    metadata: row.o_metadata,
    requireTwoFactor: row.o_require_two_factor,
    createdBy: row.o_created_by,
    createdAt: iso(row.o_created_at),
    updatedAt: iso(row.o_updated_at),
    deletedAt: row.o_deleted_at ? iso(row.o_deleted_at) : null,
  };
}

/** The SQL of {@link toMember} for the member columns `<alias>.<prefix><column>`. */
export function memberJsonSql(alias: string, prefix = ""): string {
  const c = (name: string) => `${alias}.${prefix}${name}`;
  return `json_build_object('id', ${c("id")}, 'organizationId', ${c("organization_id")},
    'userId', ${c("user_id")}, 'roles', ${c("roles")},
    'createdAt', ${isoSql(c("created_at"))}, 'updatedAt', ${isoSql(c("updated_at"))})`;
}

/** The JSON of a member row. */
export function toMember(row: MemberRow): AuthMember {
  return {
    id: row.m_id,
    organizationId: row.m_organization_id,
    userId: row.m_user_id,
    roles: [...row.m_roles],
    createdAt: iso(row.m_created_at),
    updatedAt: iso(row.m_updated_at),
  };
}

/**
 * The JSON of an invitation row. Only the inviter's creation answer carries the `token` (the
 * database keeps its hash alone).
 */
export function toInvitation(row: InvitationRow, token?: string): AuthInvitation {
  const invitation: AuthInvitation = {
    id: row.i_id,
    organizationId: row.i_organization_id,
    email: row.i_email,
    roles: [...row.i_roles],
    status: row.i_status,
    inviterId: row.i_inviter_id,
    expiresAt: iso(row.i_expires_at),
    createdAt: iso(row.i_created_at),
    respondedAt: row.i_responded_at ? iso(row.i_responded_at) : null,
  };
  if (token !== undefined) invitation.token = token;
  return invitation;
}
