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
import type { AuthAccountApi } from "./account/mod.ts";
import type { AuthContract } from "./contract.ts";
import type { MePayload } from "./me/mod.ts";
import type { InvitationAnswer, InvitationWithToken } from "./organizations/invitation_service.ts";
import type { ServerAddMemberInput } from "./organizations/mod.ts";
import type {
  Invitation,
  InvitationEntry,
  Member,
  Organization,
  OrganizationEntry,
} from "./organizations/resources.ts";
import type { AuthSession } from "./session_store.ts";
import type { AuthUser } from "./user_store.ts";

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
 * The client a server-side sign-up, sign-in or verification is made for, so that the
 * per-address rate limits apply to it as over HTTP: the request it came with (its forwarding
 * header counts under `trustProxy`) and the socket's peer. Without either, only the per-account
 * limits and the hashing queue's bound apply.
 *
 * @example
 * ```ts
 * import { auth, pgliteAdapter } from "@app/fragment-cli";
 * import type { AuthApiClient } from "@app/fragment-cli/auth";
 *
 * const authModule = auth({ database: pgliteAdapter() });
 * async function signInFor(request: Request, remoteAddress: string) {
 *   const client: AuthApiClient = { request, remoteAddress };
 *   return await authModule.api.signIn(await request.json(), client);
 * }
 * ```
 */
export interface AuthApiClient {
  /** The request the call serves (its forwarding header counts under `trustProxy`). */
  request?: Request;
  /** The socket's peer address of that request. */
  remoteAddress?: string | null;
}

/**
 * `pageSize` (1–100, default 20) and `cursor` of a list, as over HTTP; `pageSize` may be a number.
 *
 * @example
 * ```ts
 * import type { AuthApiPage } from "@app/fragment-cli/auth";
 *
 * const first: AuthApiPage = { pageSize: 50 };
 * ```
 */
export interface AuthApiPage {
  /** Items per page, 1–100. @default 20 */
  pageSize?: number | string;
  /** The `cursor` of the previous page's answer. */
  cursor?: string;
}

/**
 * One page of a list: the next page's `cursor` (`null` on the last) and `hasNextPage`.
 *
 * @example Read every page
 * ```ts
 * import { auth, pgliteAdapter } from "@app/fragment-cli";
 * import type { AuthActor, AuthApiPageOf, AuthMember } from "@app/fragment-cli/auth";
 *
 * const { api } = auth({ database: pgliteAdapter() });
 * async function allMembers(actor: AuthActor, organizationId: string): Promise<AuthMember[]> {
 *   let page: AuthApiPageOf & { members: AuthMember[] } = await api.listMembers(actor, {
 *     organizationId,
 *   });
 *   const members = [...page.members];
 *   while (page.hasNextPage && page.cursor) {
 *     page = await api.listMembers(actor, { organizationId, cursor: page.cursor });
 *     members.push(...page.members);
 *   }
 *   return members;
 * }
 * ```
 */
export interface AuthApiPageOf {
  /** The cursor of the next page, `null` on the last page. */
  cursor: string | null;
  /** Whether another page follows. */
  hasNextPage: boolean;
}

/**
 * An organization by id: `{ organizationId }`.
 *
 * @example
 * ```ts
 * import type { AuthOrganizationRef } from "@app/fragment-cli/auth";
 *
 * const ref: AuthOrganizationRef = { organizationId: "0b9a5c4e-4c1e-4a53-9a8e-2f1f7d0f6a11" };
 * ```
 */
export interface AuthOrganizationRef {
  /** The organization's id. */
  organizationId: string;
}

/**
 * A member by id: `{ organizationId, memberId }` (a member id of another organization is not
 * found).
 *
 * @example
 * ```ts
 * import type { AuthMemberRef } from "@app/fragment-cli/auth";
 *
 * const ref: AuthMemberRef = {
 *   organizationId: "0b9a5c4e-4c1e-4a53-9a8e-2f1f7d0f6a11",
 *   memberId: "9d1e2f3a-4b5c-4d6e-8f70-1a2b3c4d5e6f",
 * };
 * ```
 */
export interface AuthMemberRef {
  /** The organization's id. */
  organizationId: string;
  /** The membership's id (not the user's). */
  memberId: string;
}

/**
 * An invitation as its creator sees it: with the token to pass on to the invitee.
 *
 * @example
 * ```ts
 * import type { AuthCreatedInvitation } from "@app/fragment-cli/auth";
 *
 * function joinLink(invitation: AuthCreatedInvitation): string {
 *   return `https://app.example.com/join/${invitation.id}?token=${invitation.token}`;
 * }
 * ```
 */
export type AuthCreatedInvitation = InvitationWithToken;

/**
 * The answer of accepting (with the membership), rejecting or canceling an invitation.
 *
 * @example
 * ```ts
 * import type { AuthInvitationAnswer } from "@app/fragment-cli/auth";
 *
 * function describe(answer: AuthInvitationAnswer): string {
 *   return "member" in answer ? `joined ${answer.organization.name}` : answer.invitation.status;
 * }
 * ```
 */
export type AuthInvitationAnswer = InvitationAnswer;

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
export interface AuthApi extends AuthAccountApi {
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

  /** `POST /sign-up`: creates a user and their first credential, mails the verification token. */
  signUp(
    input: AuthContract["signUp"]["body"],
    client?: AuthApiClient,
  ): Promise<AuthContract["signUp"]["response"]>;
  /** `POST /sign-in`: issues a credential (401 `INVALID_CREDENTIALS`). */
  signIn(
    input: AuthContract["signIn"]["body"],
    client?: AuthApiClient,
  ): Promise<AuthContract["signIn"]["response"]>;
  /** `POST /sign-out`: ends the actor's credential (needs `{ token }` or a request's context). */
  signOut(actor: AuthActor): Promise<void>;
  /** `GET /session`: the actor's user and credential expiry (needs a credential). */
  getSession(actor: AuthActor): Promise<AuthContract["session"]["response"]>;
  /** `GET /me`: the user, organizations, active organization and pending invitations. */
  me(actor: AuthActor): Promise<MePayload>;
  /** `POST /verify-email`: consumes a mailed token. */
  verifyEmail(
    input: AuthContract["verifyEmail"]["body"],
    client?: AuthApiClient,
  ): Promise<AuthContract["verifyEmail"]["response"]>;
  /** `POST /verify-email/resend`: mails a fresh token (409 `EMAIL_ALREADY_VERIFIED`). */
  resendVerificationEmail(actor: AuthActor, client?: AuthApiClient): Promise<void>;

  /** `POST /organizations`: the actor becomes its member with the creator roles. */
  createOrganization(
    actor: AuthActor,
    input: AuthContract["createOrganization"]["body"],
  ): Promise<OrganizationEntry>;
  /** `GET /organizations`: the actor's organizations, a page at a time. */
  listOrganizations(
    actor: AuthActor,
    page?: AuthApiPage,
  ): Promise<AuthApiPageOf & { organizations: OrganizationEntry[] }>;
  /** `GET /organizations/:organizationId` (404 `NOT_FOUND` for a non-member). */
  getOrganization(actor: AuthActor, input: AuthOrganizationRef): Promise<OrganizationEntry>;
  /** `PATCH /organizations/:organizationId` (owner, admin). */
  updateOrganization(
    actor: AuthActor,
    input: AuthOrganizationRef & AuthContract["updateOrganization"]["body"],
  ): Promise<{ organization: Organization }>;
  /** `DELETE /organizations/:organizationId` (owner). */
  deleteOrganization(actor: AuthActor, input: AuthOrganizationRef): Promise<void>;
  /** `GET /organizations/active`: the credential's active organization (needs a credential). */
  getActiveOrganization(actor: AuthActor): Promise<OrganizationEntry | null>;
  /** `POST /organizations/active` (needs a credential); `organizationId: null` clears it. */
  setActiveOrganization(
    actor: AuthActor,
    input: AuthContract["setActiveOrganization"]["body"],
  ): Promise<OrganizationEntry | null>;
  /** `GET /organizations/:organizationId/members`. */
  listMembers(
    actor: AuthActor,
    input: AuthOrganizationRef & AuthApiPage,
  ): Promise<AuthApiPageOf & { members: Member[] }>;
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
   * `POST /organizations/:organizationId/members` as `actor`: an owner or admin, with the
   * `canAddMember` policy's consent (403 `DIRECT_ADD_NOT_ALLOWED` otherwise), exactly as over
   * HTTP.
   */
  addMember(
    actor: AuthActor,
    input: AuthOrganizationRef & AuthContract["addMember"]["body"],
  ): Promise<Member>;
  /** `PATCH /organizations/:organizationId/members/:memberId` (owner, admin). */
  updateMemberRoles(
    actor: AuthActor,
    input: AuthMemberRef & AuthContract["updateMemberRoles"]["body"],
  ): Promise<{ member: Member }>;
  /** `DELETE /organizations/:organizationId/members/:memberId`: remove, or leave. */
  removeMember(actor: AuthActor, input: AuthMemberRef): Promise<void>;
  /**
   * `POST /organizations/:organizationId/invitations` (owner, admin): the invitation with its
   * token, and `rotated: true` when it re-sent a pending one (HTTP answers 200 instead of 201).
   */
  createInvitation(
    actor: AuthActor,
    input: AuthOrganizationRef & AuthContract["createInvitation"]["body"],
  ): Promise<{ invitation: AuthCreatedInvitation; rotated: boolean }>;
  /** `GET /organizations/:organizationId/invitations` (owner, admin). */
  listInvitations(
    actor: AuthActor,
    input: AuthOrganizationRef & AuthApiPage,
  ): Promise<AuthApiPageOf & { invitations: Invitation[] }>;
  /** `GET /organizations/invitations`: the pending invitations to the actor's verified address. */
  listMyInvitations(
    actor: AuthActor,
    page?: AuthApiPage,
  ): Promise<AuthApiPageOf & { invitations: InvitationEntry[] }>;
  /**
   * `PATCH /organizations/invitations/:invitationId`: accept or reject (the invitee, with the
   * token), or cancel (the inviter, owners, admins).
   */
  respondToInvitation(
    actor: AuthActor,
    input: { invitationId: string } & AuthContract["respondToInvitation"]["body"],
  ): Promise<AuthInvitationAnswer>;
  /** Cancels an invitation: {@link AuthApi.respondToInvitation} with `action: "cancel"`. */
  cancelInvitation(
    actor: AuthActor,
    input: { invitationId: string; token: string },
  ): Promise<{ invitation: Invitation }>;
  /**
   * The durable hooks delivering the organization events (inspect, `requeue` failed deliveries,
   * `drain()` in tests); `null` with `organizations: false`. Their worker is the module's
   * `background`: it starts with the module's first request (or `serve()`) and stops with
   * `module.close()`.
   */
  readonly hooks: DurableHooks | null;
}
