/**
 * The server-side API of the auth module, for the application that embeds it.
 *
 * @module
 */

import type { DurableHooks, SqlAdapter } from "../db/mod.ts";
import type { Accounts } from "./accounts.ts";
import type { Authenticator } from "./authenticator.ts";
import { emailSchema } from "./email.ts";
import { deleteUserSessions } from "./sessions.ts";
import type { AuthSession } from "./sessions.ts";
import type { AuthTableNames } from "./tables.ts";
import type { PasswordHasher } from "./password_hasher.ts";
import type { OrganizationsFeature, ServerAddMemberInput } from "./organizations/mod.ts";
import type { Member } from "./organizations/resources.ts";
import { type AuthUser, isUuid, publicUser, updateUserRole } from "./users.ts";
import { PASSWORD_LENGTH } from "./auth_routes.ts";
import { isWellFormedText } from "./well_formed.ts";

/**
 * The global roles a user can have.
 *
 * @example
 * ```ts
 * import type { AuthUserRole } from "./api.ts";
 *
 * const role: AuthUserRole = "admin";
 * ```
 */
export type AuthUserRole = "user" | "admin";

/**
 * Input of {@link AuthApi.createUser}.
 *
 * @example
 * ```ts
 * import type { AuthCreateUserInput } from "./api.ts";
 *
 * const input: AuthCreateUserInput = { email: "ada@example.com", password: "correct horse" };
 * ```
 */
export interface AuthCreateUserInput {
  /** The email address (trimmed and lower-cased like at sign-up). */
  email: string;
  /** The password, 8–128 characters. */
  password: string;
  /** The global role. @default "user" */
  role?: AuthUserRole;
  /**
   * Whether the address counts as verified at once (an administrator seeding accounts vouches for
   * it). Otherwise no mail is sent: the user asks for one with `POST /verify-email/resend`.
   * @default false
   */
  emailVerified?: boolean;
}

/**
 * The user and credential of a request, see {@link AuthApi.getRequestAuth}.
 *
 * @example
 * ```ts ignore
 * const context: AuthRequestContext | null = await authModule.api.getRequestAuth(request);
 * console.log(context?.session.activeOrganizationId);
 * ```
 */
export interface AuthRequestContext {
  user: AuthUser;
  session: AuthSession;
}

/**
 * Server-side operations an embedding application can call directly (no HTTP, no CSRF check).
 *
 * @example Guard an application route with the auth module's credential
 * ```ts ignore
 * const found = await authModule.api.getRequestAuth(request);
 * if (!found) return new Response("Sign in first", { status: 401 });
 * if (found.user.role !== "admin") return new Response("Admins only", { status: 403 });
 * ```
 */
export interface AuthApi {
  /**
   * Creates a user. Throws `HttpError` 409 `EMAIL_TAKEN` for a taken email, `TypeError` for an
   * invalid email or password.
   */
  createUser(input: AuthCreateUserInput): Promise<AuthUser>;
  /** The user and session of a request's credential (cookie or Bearer), or `null`. */
  getRequestAuth(request: Request): Promise<AuthRequestContext | null>;
  /** Ends every credential of a user (e.g. after a password reset); returns how many ended. */
  revokeUserSessions(userId: string): Promise<number>;
  /** Sets a user's global role; throws `RangeError` when the user does not exist. */
  setUserRole(userId: string, role: AuthUserRole): Promise<AuthUser>;
  /**
   * Adds a user to an organization on the server's say, without an invitation and without
   * asking `organizations.canAddMember` (the HTTP route needs its consent); `membershipLimit`
   * still applies. Emits `memberAdded` with `actorUserId: null`. Throws `HttpError` 404
   * `NOT_FOUND` (no live organization) or `USER_NOT_FOUND`, 403 `MEMBERSHIP_LIMIT_REACHED`, 409
   * `ALREADY_MEMBER`; `TypeError` for roles not among `organizations.roles`, and `Error` with
   * `organizations: false`.
   *
   * @example Put every new employee into the company's organization
   * ```ts ignore
   * await authModule.api.addMember({ organizationId: companyId, userId: user.id });
   * ```
   */
  addMember(input: ServerAddMemberInput): Promise<Member>;
  /**
   * The durable hooks delivering the organization events (inspect, `requeue` failed deliveries,
   * `drain()` in tests); `null` with `organizations: false`. Their worker is the module's
   * `background`: it starts with the module's first request (or `serve()`) and stops with
   * `module.close()`.
   */
  readonly hooks: DurableHooks | null;
}

/** What the API needs from its module instance. */
export interface AuthApiDeps {
  db: SqlAdapter;
  tables: AuthTableNames;
  accounts: Accounts;
  authenticator: Authenticator;
  hasher: PasswordHasher;
  hooks: DurableHooks | null;
  /** The organizations feature, `null` with `organizations: false`. */
  organizations: OrganizationsFeature | null;
}

const ROLES: readonly AuthUserRole[] = ["user", "admin"];

/** Builds the server-side API of one module instance. */
export function createAuthApi(deps: AuthApiDeps): AuthApi {
  const { db, tables, accounts, authenticator, hasher } = deps;
  return {
    hooks: deps.hooks,
    async createUser(input) {
      const parsed = emailSchema.safeParse(input.email);
      if (!parsed.success) throw new TypeError(`createUser(): invalid email "${input.email}"`);
      const length = [...input.password].length;
      if (length < PASSWORD_LENGTH.min || length > PASSWORD_LENGTH.max) {
        throw new TypeError(
          `createUser(): the password must be ${PASSWORD_LENGTH.min}–${PASSWORD_LENGTH.max} characters`,
        );
      }
      if (!isWellFormedText(input.password)) {
        throw new TypeError("createUser(): the password must not contain unpaired surrogates");
      }
      const role = input.role ?? "user";
      if (!ROLES.includes(role)) throw new TypeError(`createUser(): unknown role "${role}"`);
      const emailVerified = input.emailVerified ?? false;
      if (typeof emailVerified !== "boolean") {
        throw new TypeError("createUser(): emailVerified must be a boolean");
      }
      const passwordHash = await hasher.hash(input.password);
      const created = await db.transaction((tx) =>
        accounts.createUser(tx, { email: parsed.data, passwordHash, role, emailVerified })
      );
      return created.user;
    },
    async getRequestAuth(request) {
      try {
        const found = await authenticator.lookup(request);
        return found ? { user: found.user, session: found.session } : null;
      } catch (error) {
        // Conflicting cookie and header: no single credential, so no user.
        if ((error as { code?: unknown }).code === "CONFLICTING_CREDENTIALS") return null;
        throw error;
      }
    },
    async revokeUserSessions(userId) {
      return isUuid(userId) ? await deleteUserSessions(db, tables, userId) : 0;
    },
    async setUserRole(userId, role) {
      if (!ROLES.includes(role)) throw new TypeError(`setUserRole(): unknown role "${role}"`);
      const updated = await updateUserRole(db, tables, userId, role);
      if (!updated) throw new RangeError(`setUserRole(): no user with id "${userId}"`);
      return publicUser(updated);
    },
    addMember(input) {
      if (!deps.organizations) {
        return Promise.reject(new Error("addMember(): the organizations feature is disabled"));
      }
      return deps.organizations.addMember(input);
    },
  };
}
