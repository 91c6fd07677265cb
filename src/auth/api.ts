/**
 * `authModule.api`: every operation of the auth module callable on the server, with no HTTP. Each
 * call names its actor ({@link AuthActor}) where the operation has one, is checked by the same
 * input schemas as its route, and runs the same service as the route: the same authorization,
 * limits, error codes (thrown as `HttpError`) and events. Its implementation is
 * `create_api.ts`.
 *
 * @module
 */

import type { DurableHooks } from "../hooks/mod.ts";
import type { AuthActor } from "./actor.ts";
import type { AuthOrganizationRef } from "./api_inputs.ts";
import type { AuthOperationMethods } from "./contract.ts";
import type { AuthAddMemberBody } from "./organizations/bodies.ts";
import type { AuthAddMemberInput } from "./organizations/mod.ts";
import type { AuthInvitation, AuthMember } from "./organizations/resources.ts";
import type { AuthSession } from "./sessions/session.ts";
import type { AuthUser } from "./account/user.ts";
import type {
  AuthTelegramAccountContext,
  AuthTelegramLinkResult,
  AuthTelegramUser,
} from "./telegram/mod.ts";

/**
 * The global roles a user can have.
 *
 * @example
 * ```ts
 * import type { AuthUserRole } from "@app/fragment-cli/auth";
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
 * import type { AuthCreateUserInput } from "@app/fragment-cli/auth";
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
 * The user and credential of a request, see {@link AuthApi.getRequestAuth}. It is also an
 * {@link AuthActor}: pass it to act for the request's user with their credential.
 *
 * @example
 * ```ts
 * import { auth, pgliteAdapter } from "@app/fragment-cli";
 * import type { AuthRequestContext } from "@app/fragment-cli/auth";
 *
 * const authModule = auth({ database: pgliteAdapter() });
 * async function handle(request: Request): Promise<Response> {
 *   const context: AuthRequestContext | null = await authModule.api.getRequestAuth(request);
 *   if (!context) return new Response("sign in first", { status: 401 });
 *   return Response.json({ email: context.user.email, active: context.session.activeOrganizationId });
 * }
 * ```
 */
export interface AuthRequestContext {
  /** The signed-in user. */
  user: AuthUser;
  /** The credential's session (its expiry, its active organization). */
  session: AuthSession;
}

/**
 * What {@link AuthApi.hasPermission} and {@link AuthApi.requirePermission} ask about.
 *
 * @example
 * ```ts
 * import type { AuthPermissionQuery } from "@app/fragment-cli/auth";
 *
 * const query: AuthPermissionQuery = { organizationId: "0c7a5e1e-2f4b-4b8e-9d1a-6f3c2b1a0e9d", permission: "invoice:read" };
 * ```
 */
export interface AuthPermissionQuery {
  /** The organization. */
  organizationId: string;
  /** A `resource:action` permission (no wildcard): built-in or the application's. */
  permission: string;
}

/**
 * What {@link AuthApi.requirePermission} returns: the request's user and session, their
 * membership and their effective permissions in the organization.
 *
 * @example
 * ```ts
 * import type { AuthPermissionContext } from "@app/fragment-cli/auth";
 *
 * function mayExport(context: AuthPermissionContext): boolean {
 *   return context.permissions.includes("invoice:export");
 * }
 * ```
 */
export interface AuthPermissionContext extends AuthRequestContext {
  /** The caller's membership in the organization. */
  member: AuthMember;
  /** The caller's effective permissions there, sorted. */
  permissions: string[];
}

/**
 * Server-side operations an embedding application can call directly: no HTTP, no CSRF check,
 * otherwise the rules of the routes. Operations that a signed-in user performs take the actor
 * first ({@link AuthActor}: `{ userId }`, `{ token }` or a request's context), then the input of
 * the route (path parameters and body in one object). Errors are the routes' own: an `HttpError`
 * with the same `status` and `code` (e.g. 403 `FORBIDDEN` for a member without the rights, 400
 * `VALIDATION_ERROR` with `issues` for a bad input). Organization operations throw an `Error` with
 * `organizations: false`.
 *
 * @example Create an organization for an existing user and invite someone
 * ```ts
 * import { auth, migrate, pgliteAdapter } from "@app/fragment-cli";
 * import { authSchema } from "@app/fragment-cli/auth";
 *
 * const database = pgliteAdapter();
 * await migrate(database, authSchema);
 * const authModule = auth({ database });
 * const user = await authModule.api.createUser({ email: "ada@example.com", password: "correct horse" });
 * const owner = { userId: user.id };
 * const { organization } = await authModule.api.createOrganization(owner, { name: "Acme" });
 * const { invitation } = await authModule.api.createInvitation(owner, {
 *   organizationId: organization.id,
 *   email: "grace@example.com",
 * });
 * ```
 */
export interface AuthApi extends AuthOperationMethods {
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
   * Whether the actor holds `permission` (`resource:action`, e.g. `"invoice:read"`) in the
   * organization, by the roles of their membership (`organizations.permissions`; `owner` holds
   * every one). `false` for a non-member, a deleted organization, or a member without the second
   * factor the organization requires (`requireTwoFactor`). Throws `TypeError` for a malformed
   * permission, `Error` with `organizations: false`.
   *
   * @example
   * ```ts ignore
   * if (await authModule.api.hasPermission({ userId }, { organizationId, permission: "invoice:read" })) {
   *   // show the invoices
   * }
   * ```
   */
  hasPermission(actor: AuthActor, input: AuthPermissionQuery): Promise<boolean>;
  /**
   * For the application's own routes: the caller of `request` (cookie or Bearer credential) must
   * hold `permission` in the organization. Throws the module's errors, which routes built with
   * `route()` answer as JSON: 401 `UNAUTHENTICATED` (no valid credential), 404 `NOT_FOUND` (not a
   * member: like every organization route, no enumeration), 403 `FORBIDDEN` (a member without
   * the permission), 403 `TWO_FACTOR_REQUIRED` (the organization requires a second factor the
   * caller lacks). Returns the caller with their membership and permissions.
   *
   * @example A route of the application gated on a permission of its own
   * ```ts ignore
   * route("GET", "/invoices/:organizationId", async (request, { params }) => {
   *   await authModule.api.requirePermission(request, {
   *     organizationId: params.organizationId,
   *     permission: "invoice:read",
   *   });
   *   return Response.json(await invoicesOf(params.organizationId));
   * });
   * ```
   */
  requirePermission(request: Request, input: AuthPermissionQuery): Promise<AuthPermissionContext>;

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
  addMember(input: AuthAddMemberInput): Promise<AuthMember>;
  /**
   * `POST /organizations/:organizationId/members` as `actor`: a member with `member:create`, with the
   * `canAddMember` policy's consent (403 `DIRECT_ADD_NOT_ALLOWED` otherwise), exactly as over
   * HTTP.
   */
  addMember(
    actor: AuthActor,
    input: AuthOrganizationRef & AuthAddMemberBody,
  ): Promise<AuthMember>;
  /** Cancels an invitation: {@link AuthApi.respondToInvitation} with `action: "cancel"`. */
  cancelInvitation(
    actor: AuthActor,
    input: { invitationId: string; token: string },
  ): Promise<{ invitation: AuthInvitation }>;
  /**
   * The account a Telegram user is linked to, with its active organization, in one query; `null`
   * when that Telegram user is linked to no (live) account. For the messenger's handlers. Throws
   * `Error` without the `telegram` option.
   *
   * @example Answer with the sender's organization
   * ```ts ignore
   * const account = await authModule.api.telegramAccount(message.from.id);
   * const org = account?.activeOrganization?.organization.name ?? "none";
   * ```
   */
  telegramAccount(
    telegramUserId: number | string | bigint,
  ): Promise<AuthTelegramAccountContext | null>;
  /**
   * Completes a link: the bot received `/start <token>` from `from` (the message's `from`). Links
   * that Telegram user to the account that asked for the token (`POST /telegram/link`), uses the
   * token up, and records `telegramLinked`; the same Telegram user's `/start` again (a redelivered
   * update, a retried hook) answers the same link. Refusals are results, not errors: an unknown,
   * used or malformed token, an expired one, or a Telegram user linked to another account. Throws
   * `Error` without the `telegram` option.
   */
  confirmTelegramLink(token: string, from: AuthTelegramUser): Promise<AuthTelegramLinkResult>;
  /**
   * The durable hooks delivering the organization events (inspect, `retryFailed()` deliveries,
   * `drain()` in tests); `null` with `organizations: false`. Their worker is the module's
   * `background`: it starts with the module's first request (or `serve()`) and stops with
   * `module.close()`.
   */
  readonly hooks: DurableHooks | null;
}
