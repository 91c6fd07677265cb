/**
 * Permissions attached to roles (`organizations.permissions`): each role holds a list of
 * `resource:action` strings (`"invoice:read"`, `"member:*"` for every action on a resource). The
 * module's routes check the built-in ones ({@link BUILT_IN_PERMISSIONS}); the application asks
 * for its own with `authModule.api.hasPermission()`. `owner` holds every permission, the
 * application's included. A member's permissions are the union of their roles'.
 *
 * @module
 */

import { ModuleConfigError } from "../../core/mod.ts";

/**
 * The permissions the module's own routes check.
 *
 * @example
 * ```ts
 * import { BUILT_IN_PERMISSIONS } from "@app/fragment-cli/auth";
 *
 * console.log(BUILT_IN_PERMISSIONS.includes("invitation:create")); // true
 * ```
 */
export const BUILT_IN_PERMISSIONS: readonly string[] = Object.freeze([
  "organization:update",
  "organization:delete",
  "member:create",
  "member:update",
  "member:delete",
  "invitation:create",
  "invitation:cancel",
  "invitation:list",
  "audit:read",
]);

/**
 * The default permissions of `admin`: today's rights of an admin (everything but deleting the
 * organization and managing owners), and reading the audit log.
 */
export const DEFAULT_ADMIN_PERMISSIONS: readonly string[] = Object.freeze(
  BUILT_IN_PERMISSIONS.filter((permission) => permission !== "organization:delete"),
);

/** `resource:action`, lower-case; the action may be `*` (every action on the resource). */
const PERMISSION = /^[a-z][a-z0-9_-]{0,47}:(?:\*|[a-z][a-z0-9_-]{0,47})$/;
/** A permission one asks about: no wildcard. */
const EXACT_PERMISSION = /^[a-z][a-z0-9_-]{0,47}:[a-z][a-z0-9_-]{0,47}$/;

/** Whether `value` is a permission one can ask about (`resource:action`, no wildcard). */
export function isPermission(value: unknown): value is string {
  return typeof value === "string" && EXACT_PERMISSION.test(value);
}

/** The permissions of the roles, resolved: what every check of the feature asks. */
export interface PermissionModel {
  /** The permissions of each role but `owner` (which holds every one). */
  readonly byRole: ReadonlyMap<string, readonly string[]>;
  /** The effective permissions of a member with `roles`, sorted (owner: every known one). */
  of(roles: readonly string[]): string[];
  /** Whether a member with `roles` holds `permission` (exact, or through `resource:*`). */
  has(roles: readonly string[], permission: string): boolean;
  /**
   * Whether a member with `actorRoles` may grant `roles`: they hold every permission of each,
   * and only an owner grants `owner`.
   */
  mayGrant(actorRoles: readonly string[], roles: readonly string[]): boolean;
}

function held(granted: readonly string[], permission: string): boolean {
  const resource = permission.slice(0, permission.indexOf(":"));
  return granted.includes(permission) || granted.includes(`${resource}:*`);
}

/**
 * Validates `organizations.permissions` against the roles and builds the model. Roles absent from
 * the option keep their defaults: `admin` {@link DEFAULT_ADMIN_PERMISSIONS}, any other none.
 *
 * @throws {ModuleConfigError} For an unknown role, a permission given to `owner`, a malformed or
 *   repeated permission.
 */
export function permissionModel(
  roles: readonly string[],
  option: unknown,
): PermissionModel {
  const fail = (path: string, details: string): never => {
    throw new ModuleConfigError("auth", `organizations.permissions${path}: ${details}`);
  };
  const given: Record<string, unknown> = option === undefined ? {} : option as never;
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    fail("", "expected an object of role name → list of permissions");
  }
  const byRole = new Map<string, readonly string[]>();
  for (const role of roles) {
    if (role === "owner") continue;
    byRole.set(role, role === "admin" ? DEFAULT_ADMIN_PERMISSIONS : []);
  }
  for (const [role, list] of Object.entries(given)) {
    if (!roles.includes(role)) {
      fail(`.${role}`, `"${role}" is not one of organizations.roles (${roles.join(", ")})`);
    }
    if (role === "owner") fail(".owner", "owner holds every permission; list none for it");
    if (!Array.isArray(list)) fail(`.${role}`, 'expected a list such as ["invoice:read"]');
    const seen = new Set<string>();
    for (const permission of list as unknown[]) {
      if (typeof permission !== "string" || !PERMISSION.test(permission)) {
        fail(
          `.${role}`,
          `"${String(permission)}" is not a permission ("resource:action" or "resource:*", ` +
            "lower-case letters, digits, _ and -)",
        );
      }
      if (seen.has(permission as string)) fail(`.${role}`, `"${permission}" is listed twice`);
      seen.add(permission as string);
    }
    byRole.set(role, Object.freeze([...seen]));
  }
  const every = Object.freeze(
    [...new Set([...BUILT_IN_PERMISSIONS, ...[...byRole.values()].flat()])].sort(),
  );
  const cache = new Map<string, string[]>();
  function of(memberRoles: readonly string[]): string[] {
    const key = memberRoles.join(",");
    let found = cache.get(key);
    if (!found) {
      found = memberRoles.includes("owner")
        ? [...every]
        : [...new Set(memberRoles.flatMap((role) => byRole.get(role) ?? []))].sort();
      if (cache.size < 1000) cache.set(key, found);
    }
    return [...found];
  }
  function has(memberRoles: readonly string[], permission: string): boolean {
    if (memberRoles.includes("owner")) return true;
    return memberRoles.some((role) => held(byRole.get(role) ?? [], permission));
  }
  return Object.freeze({
    byRole,
    of,
    has,
    mayGrant(actorRoles: readonly string[], granted: readonly string[]): boolean {
      if (actorRoles.includes("owner")) return true;
      if (granted.includes("owner")) return false;
      return granted.every((role) =>
        (byRole.get(role) ?? []).every((permission) =>
          permission.endsWith(":*")
            ? actorRoles.some((own) => (byRole.get(own) ?? []).includes(permission))
            : has(actorRoles, permission)
        )
      );
    },
  });
}
