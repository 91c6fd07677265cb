/**
 * The `organizations` option of the auth module and its validation at instantiation.
 *
 * @module
 */

import { ModuleConfigError } from "../../core/mod.ts";
import type { HookRetention } from "../../hooks/mod.ts";
import { hookRetentionMs } from "../../hooks/hook_duration.ts";
import type { AuthUser } from "../account/user.ts";
import { ORGANIZATION_EVENT_NAMES, type OrganizationEventHandlers } from "./event_types.ts";
import type { AuthOrganization } from "./resources.ts";
import { type PermissionModel, permissionModel } from "./permissions.ts";

/**
 * Automatic creation of an organization for every new user, in the transaction that creates the
 * user; it becomes the first credential's active organization.
 *
 * @example A personal workspace per user
 * ```ts
 * import type { AutoCreateOrganizationOptions } from "@app/fragment-cli/auth";
 *
 * const autoCreateOrganization: AutoCreateOrganizationOptions = {
 *   name: (email) => `${email.split("@")[0]}'s workspace`,
 *   slug: (userId) => `ws-${userId.slice(0, 8)}`,
 * };
 * ```
 */
export interface AutoCreateOrganizationOptions {
  /**
   * The organization's name from the user's email.
   * @default (email) => `${localPart}'s AuthOrganization`
   */
  name?: (email: string) => string;
  /**
   * The organization's slug from the user's id; normalized, and suffixed (`-2`, `-3`, …) when it
   * is taken instead of failing the sign-up.
   * @default (userId) => userId
   */
  slug?: (userId: string) => string;
}

/**
 * What {@link AuthOrganizationsOptions.canAddMember} decides on: a member (with `member:create`) of
 * `organization` (`actor`) asks to add `user` directly, with `roles`.
 *
 * @example
 * ```ts
 * import type { CanAddMemberContext } from "@app/fragment-cli/auth";
 *
 * const sameCompany = ({ actor, user }: CanAddMemberContext): boolean =>
 *   actor.email.split("@")[1] === user.email.split("@")[1];
 * ```
 */
export interface CanAddMemberContext {
  /** The signed-in caller (already checked to hold `member:create` and the permissions of `roles`). */
  actor: AuthUser;
  /** The organization the user would join. */
  organization: AuthOrganization;
  /** The user to add (they exist). */
  user: AuthUser;
  /** The roles they would get. */
  roles: readonly string[];
}

/**
 * Whether a direct add may go ahead; only `true` allows it (see
 * {@link AuthOrganizationsOptions.canAddMember}).
 *
 * @example Admins of the deployment may add anyone, others must invite
 * ```ts
 * import type { CanAddMember } from "@app/fragment-cli/auth";
 *
 * const canAddMember: CanAddMember = ({ actor }) => actor.role === "admin";
 * ```
 */
export type CanAddMember = (context: CanAddMemberContext) => boolean | Promise<boolean>;

/**
 * Options of the organizations feature (`auth({ organizations: … })`).
 *
 * @example
 * ```ts
 * import type { AuthOrganizationsOptions } from "@app/fragment-cli/auth";
 *
 * const organizations: AuthOrganizationsOptions = {
 *   roles: ["owner", "admin", "member", "billing"],
 *   creatorRoles: ["owner"],
 *   defaultMemberRoles: ["member"],
 *   autoCreateOrganization: { name: (email) => `${email.split("@")[0]}'s team` },
 *   invitationTtlDays: 3,
 * };
 * ```
 */
export interface AuthOrganizationsOptions {
  /**
   * The role names members can have. `owner` is required (owners hold every permission, manage
   * owners and hand ownership over); what the others may do is {@link permissions}.
   * @default ["owner", "admin", "member"]
   */
  roles?: readonly string[];
  /**
   * The permissions of each role: `resource:action` strings (`"invoice:read"`, `"member:*"` for
   * every action on a resource), the built-in ones (`BUILT_IN_PERMISSIONS`) checked by the
   * module's routes, any other for your application (`authModule.api.hasPermission()`). A role
   * listed here gets exactly its list; a role not listed keeps its default: `admin` every
   * built-in permission but `organization:delete`, any other role none. `owner` holds every
   * permission and cannot be listed. A member holds the union of their roles' permissions.
   * @default {} (the defaults above)
   */
  permissions?: Readonly<Record<string, readonly string[]>>;
  /**
   * The roles an owner keeps after handing ownership over
   * (`POST /organizations/:organizationId/transfer-ownership`); among `roles`, without `owner`.
   * @default ["admin"] (`defaultMemberRoles` when `roles` has no `admin`)
   */
  previousOwnerRoles?: readonly string[];
  /**
   * How many days audit log entries are kept; older ones are purged by a scheduled hook (hourly).
   * @default 365
   */
  auditLogRetentionDays?: number;
  /** Roles of an organization's creator; must include `owner`. @default ["owner"] */
  creatorRoles?: readonly string[];
  /** Roles of a member added or invited without explicit roles. @default ["member"] */
  defaultMemberRoles?: readonly string[];
  /** When set, every new user gets an organization of their own. @default undefined (off) */
  autoCreateOrganization?: AutoCreateOrganizationOptions;
  /** How long an invitation stays valid, in days. @default 7 */
  invitationTtlDays?: number;
  /**
   * Largest accepted `metadata` of an organization, in bytes of its JSON text.
   * @default 8192
   */
  maxMetadataBytes?: number;
  /** Handlers of the durable notifications (organization, member and invitation events). */
  hooks?: OrganizationEventHandlers;
  /**
   * Automatic purging of the delivered events: the worker (and `api.hooks.drain()`) deletes the
   * event occurrences done for longer than `done` (`"7d"`, `"12h"`, `"30m"`, `"0s"`, or
   * milliseconds), like the `retention` of `durableHooks()` and of the messenger. Failed,
   * cancelled and undelivered events are never purged; the organizations, members and
   * invitations they describe are untouched.
   * @default keep every occurrence
   */
  retention?: HookRetention;
  /**
   * Whether `POST /organizations/:organizationId/members` may add a user without their consent.
   * Called after the caller's own rights are checked (`member:create` and the permissions of the roles, an
   * owner to grant `owner`); only `true` allows the add. Unset, every direct add is refused with
   * 403 `DIRECT_ADD_NOT_ALLOWED` (global admins included): users join through invitations they
   * accept, or through `module.api.addMember()` on the server.
   * @default undefined (direct add refused)
   */
  canAddMember?: CanAddMember;
  /**
   * How many live (not deleted) organizations one user may have created and still belong to;
   * `false` for no limit. Beyond it, `POST /organizations` answers 403
   * `ORGANIZATION_LIMIT_REACHED`.
   * @default 100
   */
  organizationLimit?: number | false;
  /**
   * How many members one organization may have; `false` for no limit. Checked by direct adds,
   * invitation acceptances and `module.api.addMember()` (403 `MEMBERSHIP_LIMIT_REACHED`).
   * @default 100
   */
  membershipLimit?: number | false;
  /**
   * How many pending, unexpired invitations one organization may have; `false` for no limit.
   * Beyond it, a new invitation answers 403 `INVITATION_LIMIT_REACHED` (re-sending a pending one
   * still works).
   * @default 100
   */
  invitationLimit?: number | false;
}

/** The organizations options after defaults and validation. */
export interface ResolvedOrganizationsOptions {
  roles: readonly string[];
  /** The permissions of the roles. */
  permissions: PermissionModel;
  previousOwnerRoles: readonly string[];
  auditLogRetentionDays: number;
  creatorRoles: readonly string[];
  defaultMemberRoles: readonly string[];
  autoCreateOrganization: Required<AutoCreateOrganizationOptions> | null;
  invitationTtlSeconds: number;
  maxMetadataBytes: number;
  hooks: OrganizationEventHandlers;
  /** The retention of done event occurrences, `undefined` to keep them all. */
  retention: HookRetention | undefined;
  /** `null` when unset: every direct add is refused. */
  canAddMember: CanAddMember | null;
  /** The limits; `null` for none. */
  organizationLimit: number | null;
  membershipLimit: number | null;
  invitationLimit: number | null;
}

/** The default of `organizationLimit`, `membershipLimit` and `invitationLimit`. */
export const DEFAULT_ORGANIZATIONS_LIMIT = 100;

/** The largest limit accepted (counts are compared in SQL as integers). */
const MAX_LIMIT = 1_000_000;

/** The roles with a meaning of their own. */
export const OWNER_ROLE = "owner";
/** Manages the organization (everything but deleting it and managing owners). */
export const ADMIN_ROLE = "admin";

const ROLE_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

function fail(option: string, details: string): never {
  throw new ModuleConfigError("auth", `organizations.${option}: ${details}`);
}

function roleList(
  option: string,
  value: unknown,
  fallback: readonly string[],
  allowed?: readonly string[],
): readonly string[] {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || value.length === 0) {
    fail(option, "expected a non-empty list of roles");
  }
  const seen = new Set<string>();
  for (const role of value) {
    if (typeof role !== "string" || !ROLE_NAME.test(role)) {
      fail(option, `"${String(role)}" is not a role name (lower-case letters, digits, _ and -)`);
    }
    if (seen.has(role)) fail(option, `"${role}" is listed twice`);
    if (allowed && !allowed.includes(role)) {
      fail(option, `"${role}" is not one of organizations.roles (${allowed.join(", ")})`);
    }
    seen.add(role);
  }
  return Object.freeze([...value]);
}

/** A limit option: a whole number from 1 to {@link MAX_LIMIT}, or `false` for none. */
function limit(option: string, value: unknown): number | null {
  if (value === undefined) return DEFAULT_ORGANIZATIONS_LIMIT;
  if (value === false) return null;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_LIMIT) {
    fail(option, `expected false or an integer from 1 to ${MAX_LIMIT}, got ${String(value)}`);
  }
  return value;
}

function defaultName(email: string): string {
  return `${email.split("@")[0]}'s Organization`;
}

/** Applies defaults and validates; `false` disables the feature (returns `null`). */
export function resolveOrganizationsOptions(
  options: AuthOrganizationsOptions | false | undefined,
): ResolvedOrganizationsOptions | null {
  if (options === false) return null;
  if (options === undefined) options = {};
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new ModuleConfigError("auth", "organizations: expected false or an object");
  }
  const roles = roleList("roles", options.roles, [OWNER_ROLE, ADMIN_ROLE, "member"]);
  if (!roles.includes(OWNER_ROLE)) fail("roles", `must include "${OWNER_ROLE}"`);
  const creatorRoles = roleList("creatorRoles", options.creatorRoles, [OWNER_ROLE], roles);
  if (!creatorRoles.includes(OWNER_ROLE)) {
    fail("creatorRoles", `must include "${OWNER_ROLE}" (every organization needs an owner)`);
  }
  const defaultMemberRoles = roleList(
    "defaultMemberRoles",
    options.defaultMemberRoles,
    roles.includes("member") ? ["member"] : [],
    roles,
  );
  if (defaultMemberRoles.length === 0) {
    fail("defaultMemberRoles", 'required when organizations.roles has no "member"');
  }
  let autoCreate: Required<AutoCreateOrganizationOptions> | null = null;
  const auto = options.autoCreateOrganization;
  if (auto !== undefined) {
    if (typeof auto !== "object" || auto === null) {
      fail("autoCreateOrganization", "expected an object");
    }
    if (auto.name !== undefined && typeof auto.name !== "function") {
      fail("autoCreateOrganization.name", "expected a function (email) => string");
    }
    if (auto.slug !== undefined && typeof auto.slug !== "function") {
      fail("autoCreateOrganization.slug", "expected a function (userId) => string");
    }
    autoCreate = { name: auto.name ?? defaultName, slug: auto.slug ?? ((userId) => userId) };
  }
  const days = options.invitationTtlDays ?? 7;
  if (typeof days !== "number" || !Number.isFinite(days) || days <= 0 || days > 365) {
    fail(
      "invitationTtlDays",
      `expected a number of days greater than 0 and at most 365, got ${days}`,
    );
  }
  const maxMetadataBytes = options.maxMetadataBytes ?? 8192;
  if (!Number.isInteger(maxMetadataBytes) || maxMetadataBytes < 2 || maxMetadataBytes > 65536) {
    fail("maxMetadataBytes", `expected an integer from 2 to 65536, got ${maxMetadataBytes}`);
  }
  const hooks = options.hooks ?? {};
  if (typeof hooks !== "object" || hooks === null) fail("hooks", "expected an object of handlers");
  for (const [name, handler] of Object.entries(hooks)) {
    if (!(ORGANIZATION_EVENT_NAMES as readonly string[]).includes(name)) {
      fail(`hooks.${name}`, `unknown event (events: ${ORGANIZATION_EVENT_NAMES.join(", ")})`);
    }
    if (typeof handler !== "function") fail(`hooks.${name}`, "expected a function");
  }
  const retention = options.retention;
  if (retention !== undefined && hookRetentionMs(retention) === null) {
    const done = (retention as { done?: unknown } | null)?.done;
    fail(
      "retention.done",
      `expected a duration such as "7d", "12h", "30m" or "0s", got ${JSON.stringify(done)}`,
    );
  }
  const permissions = permissionModel(roles, options.permissions);
  const previousOwnerRoles = roleList(
    "previousOwnerRoles",
    options.previousOwnerRoles,
    roles.includes(ADMIN_ROLE) ? [ADMIN_ROLE] : defaultMemberRoles,
    roles,
  );
  if (previousOwnerRoles.includes(OWNER_ROLE)) {
    fail("previousOwnerRoles", `must not include "${OWNER_ROLE}" (the owner hands it over)`);
  }
  const auditLogRetentionDays = options.auditLogRetentionDays ?? 365;
  if (
    typeof auditLogRetentionDays !== "number" || !Number.isInteger(auditLogRetentionDays) ||
    auditLogRetentionDays < 1 || auditLogRetentionDays > 36500
  ) {
    fail(
      "auditLogRetentionDays",
      `expected a whole number of days from 1 to 36500, got ${String(auditLogRetentionDays)}`,
    );
  }
  if (options.canAddMember !== undefined && typeof options.canAddMember !== "function") {
    fail("canAddMember", "expected a function ({ actor, organization, user, roles }) => boolean");
  }
  return {
    roles,
    permissions,
    previousOwnerRoles,
    auditLogRetentionDays,
    creatorRoles,
    defaultMemberRoles,
    autoCreateOrganization: autoCreate,
    invitationTtlSeconds: days * 24 * 60 * 60,
    maxMetadataBytes,
    hooks,
    retention,
    canAddMember: options.canAddMember ?? null,
    organizationLimit: limit("organizationLimit", options.organizationLimit),
    membershipLimit: limit("membershipLimit", options.membershipLimit),
    invitationLimit: limit("invitationLimit", options.invitationLimit),
  };
}
