/**
 * `createAuthClient`: the typed client of the auth module. Its argument and result types are the
 * auth module's named request and answer types (`AuthContract`: the declared types of the routes'
 * zod schemas), imported as types only.
 *
 * @module
 */

import type {
  AuthAcceptedInvitation,
  AuthAddMemberBody,
  AuthApiPage,
  AuthContract,
  AuthCreatedInvitation,
  AuthCreateInvitationBody,
  AuthCreateOrganizationBody,
  AuthCredentialResponse,
  AuthCredentialsBody,
  AuthInvitation,
  AuthInvitationAnswer,
  AuthMe,
  AuthMember,
  AuthOrganization,
  AuthOrganizationEntry,
  AuthRespondToInvitationBody,
  AuthSessionResponse,
  AuthSignInResponse,
  AuthTelegramLink,
  AuthTelegramSignInBody,
  AuthUpdateMemberRolesBody,
  AuthUpdateOrganizationBody,
  AuthUser,
  AuthVerifyEmailBody,
} from "../auth/mod.ts";
import * as routes from "../../generated/client_routes.ts";
import type { AuthResult } from "./result.ts";
import { routeRequest } from "./module_client.ts";
import { type AuthFetch, createTransport, type HeadersOption } from "./transport.ts";
import {
  accountCalls,
  type AuthAccountClient,
  type AuthEmailClient,
  type AuthPasswordClient,
  type AuthSessionsClient,
  type SendOperation,
} from "./account_client.ts";
import { type AuthEmailLinkClient, emailLinkCalls } from "./email_link_client.ts";
import { type AuthIdentitiesClient, type AuthOAuthClient, oauthCalls } from "./oauth_client.ts";
import { type AuthPasskeysClient, passkeyCalls } from "./passkey_client.ts";
import {
  type AuthSignInClient,
  type AuthTwoFactorClient,
  twoFactorCalls,
} from "./two_factor_client.ts";

/**
 * `pageSize` and `cursor` of a list call; `pageSize` may be given as a number.
 *
 * @example Walk every page
 * ```ts
 * import { type AuthPageOptions, createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * let page: AuthPageOptions = { pageSize: 100 };
 * for (;;) {
 *   const { data } = await client.organizations.list(page);
 *   if (!data?.hasNextPage) break;
 *   page = { pageSize: 100, cursor: data.cursor ?? undefined };
 * }
 * ```
 */
export type AuthPageOptions = AuthApiPage;

/**
 * The invitation token, as the invitee received it (accept, reject) or the inviter keeps it
 * (cancel): the body of `PATCH /organizations/invitations/:invitationId` without the `action`,
 * which the method chooses.
 *
 * @example
 * ```ts
 * import { createAuthClient, type InvitationTokenInput } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const link = new URL("https://app.example.com/join/7c1f?token=k3J9");
 * const body: InvitationTokenInput = { token: link.searchParams.get("token") ?? "" };
 * await client.invitations.accept("7c1f", body);
 * ```
 */
export type InvitationTokenInput = Omit<AuthRespondToInvitationBody, "action">;

/**
 * How {@link createAuthClient} reaches the module.
 *
 * @example A server keeping the token itself
 * ```ts
 * import type { AuthClientOptions } from "@app/fragment-cli/client";
 *
 * let token: string | null = null;
 * const options: AuthClientOptions = {
 *   baseUrl: "http://127.0.0.1:8000/api/auth",
 *   token: () => token,
 *   headers: { "x-request-source": "billing-worker" },
 * };
 * ```
 */
export interface AuthClientOptions {
  /**
   * The module's URL: relative in a browser on the same origin (`"/api/auth"`), or absolute
   * (`"https://api.example.com/api/auth"`). A trailing `/` is ignored.
   */
  baseUrl: string;
  /** The `fetch` to call (default: `globalThis.fetch`), e.g. one that keeps cookies on a server. */
  fetch?: AuthFetch;
  /**
   * Whether a browser sends and accepts cookies (`RequestInit.credentials`). The default,
   * `"include"`, also does so for a trusted origin other than the page's (see CORS in
   * docs/auth.md).
   */
  credentials?: RequestCredentials;
  /**
   * A credential to send as `Authorization: Bearer` (the `token` of sign-up/sign-in), or a
   * function read before every request. For non-browser clients; browsers use the cookie.
   */
  token?: string | (() => string | null | undefined);
  /**
   * Headers added to every request (a `null` or `undefined` value is left out), or a function
   * called before each request that returns them. On a server, `{ cookie:
   * request.headers.get("cookie") }` calls the module as the visitor of the request served.
   */
  headers?: HeadersOption;
}

/**
 * The organization calls: `client.organizations`.
 *
 * @example
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const { organizations } = createAuthClient({ baseUrl: "/api/auth" });
 * const { data } = await organizations.create({ name: "Acme" });
 * if (data) await organizations.setActive(data.organization.id);
 * ```
 */
export interface AuthOrganizationsClient {
  /** `POST /organizations`: creates one; the caller becomes its owner. */
  create(body: AuthCreateOrganizationBody): Promise<AuthResult<AuthOrganizationEntry>>;
  /** `GET /organizations`: the caller's organizations, a page at a time. */
  list(
    page?: AuthPageOptions,
  ): Promise<AuthResult<AuthContract["listOrganizations"]["response"]>>;
  /** `GET /organizations/:organizationId`: one organization with the caller's membership. */
  get(organizationId: string): Promise<AuthResult<AuthOrganizationEntry>>;
  /** `PATCH /organizations/:organizationId` (`organization:update`). */
  update(
    organizationId: string,
    body: AuthUpdateOrganizationBody,
  ): Promise<AuthResult<{ organization: AuthOrganization }>>;
  /** `DELETE /organizations/:organizationId` (owners); `data` is `null`. */
  delete(organizationId: string): Promise<AuthResult<null>>;
  /** `GET /organizations/active`: the credential's active organization, or `null`. */
  getActive(): Promise<AuthResult<AuthOrganizationEntry | null>>;
  /** `POST /organizations/active`: sets (or, with `null`, clears) the active organization. */
  setActive(organizationId: string | null): Promise<AuthResult<AuthOrganizationEntry | null>>;
  /**
   * `POST /organizations/:organizationId/transfer-ownership` (owners): `memberId` becomes owner,
   * the caller keeps `organizations.previousOwnerRoles`.
   */
  transferOwnership(
    organizationId: string,
    memberId: string,
  ): Promise<AuthResult<AuthContract["transferOwnership"]["response"]>>;
  /** `GET /organizations/:organizationId/audit-log` (`audit:read`): newest first. */
  auditLog(
    organizationId: string,
    page?: AuthPageOptions,
  ): Promise<AuthResult<AuthContract["listAuditLog"]["response"]>>;
}

/**
 * The member calls: `client.members`.
 *
 * @example Leave an organization
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const organizationId = "0c7a5e1e-2f4b-4b8e-9d1a-6f3c2b1a0e9d";
 * const { data: entry } = await client.organizations.get(organizationId);
 * if (entry) await client.members.remove(organizationId, entry.member.id);
 * ```
 */
export interface AuthMembersClient {
  /** `GET /organizations/:organizationId/members`. */
  list(
    organizationId: string,
    page?: AuthPageOptions,
  ): Promise<AuthResult<AuthContract["listMembers"]["response"]>>;
  /** `POST /organizations/:organizationId/members` (needs the `canAddMember` policy's consent). */
  add(
    organizationId: string,
    body: AuthAddMemberBody,
  ): Promise<AuthResult<{ member: AuthMember }>>;
  /** `PATCH /organizations/:organizationId/members/:memberId`: replaces the member's roles. */
  updateRoles(
    organizationId: string,
    memberId: string,
    body: AuthUpdateMemberRolesBody,
  ): Promise<AuthResult<{ member: AuthMember }>>;
  /** `DELETE /organizations/:organizationId/members/:memberId` (one's own: leaving). */
  remove(organizationId: string, memberId: string): Promise<AuthResult<null>>;
}

/**
 * The invitation calls: `client.invitations`.
 *
 * @example Invite, then (as the invitee) accept
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const owner = createAuthClient({ baseUrl: "/api/auth" });
 * const { data } = await owner.invitations.create("0c7a5e1e-2f4b-4b8e-9d1a-6f3c2b1a0e9d", {
 *   email: "bob@example.com",
 * });
 * // … the token reaches Bob by mail; in Bob's browser:
 * const bob = createAuthClient({ baseUrl: "/api/auth" });
 * if (data) await bob.invitations.accept(data.invitation.id, { token: data.invitation.token });
 * ```
 */
export interface AuthInvitationsClient {
  /** `GET /organizations/:organizationId/invitations` (`invitation:list`). */
  list(
    organizationId: string,
    page?: AuthPageOptions,
  ): Promise<AuthResult<AuthContract["listInvitations"]["response"]>>;
  /** `POST /organizations/:organizationId/invitations`: the answer carries the `token`. */
  create(
    organizationId: string,
    body: AuthCreateInvitationBody,
  ): Promise<AuthResult<{ invitation: AuthCreatedInvitation }>>;
  /** `GET /organizations/invitations`: the caller's pending invitations (verified address). */
  listMine(
    page?: AuthPageOptions,
  ): Promise<AuthResult<AuthContract["listMyInvitations"]["response"]>>;
  /** Accepts an invitation addressed to the caller: the answer has the new membership. */
  accept(
    invitationId: string,
    body: InvitationTokenInput,
  ): Promise<AuthResult<AuthAcceptedInvitation>>;
  /** Rejects an invitation addressed to the caller. */
  reject(
    invitationId: string,
    body: InvitationTokenInput,
  ): Promise<AuthResult<{ invitation: AuthInvitation }>>;
  /** Cancels an invitation (its inviter, or `invitation:cancel`). */
  cancel(
    invitationId: string,
    body: InvitationTokenInput,
  ): Promise<AuthResult<{ invitation: AuthInvitation }>>;
}

/**
 * The Telegram calls: `client.telegram` (with `auth({ telegram })` on the server).
 *
 * @example Link the account, or sign in from a Mini App
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const { data } = await client.telegram.link();
 * if (data) console.log(`Open ${data.url} in Telegram before ${data.expiresAt}`);
 * // In a Mini App: await client.telegram.signIn({ initData: Telegram.WebApp.initData });
 * ```
 */
export interface AuthTelegramClient {
  /** `POST /telegram/link`: a single-use `https://t.me/<bot>?start=<token>` link (10 minutes). */
  link(): Promise<AuthResult<AuthTelegramLink>>;
  /** `DELETE /telegram/link`: unlinks the caller's Telegram account; `data` is `null`. */
  unlink(): Promise<AuthResult<null>>;
  /**
   * `POST /telegram/sign-in` with `{ initData }` or `{ widget }`: the credential (sets the
   * cookie), or, for a user with a second factor, the challenge `client.signIn.twoFactor` answers.
   */
  signIn(body: AuthTelegramSignInBody): Promise<AuthResult<AuthSignInResponse>>;
}

/**
 * The typed client of the auth module; every method resolves to `{ data, error }`.
 *
 * @example
 * ```ts
 * import { type AuthClient, createAuthClient } from "@app/fragment-cli/client";
 *
 * const client: AuthClient = createAuthClient({ baseUrl: "/api/auth" });
 * const { data, error } = await client.me();
 * console.log(error ? error.code : data.user.email);
 * ```
 */
export interface AuthClient {
  /** `POST /sign-up`: creates the account and signs in (cookie, and `token` in `data`). */
  signUp(body: AuthCredentialsBody): Promise<AuthResult<AuthCredentialResponse>>;
  /**
   * `POST /sign-in`: the credential, or, for a user with a second factor, the challenge
   * (`twoFactorRequired: true`) that `signIn.twoFactor({ challenge, code })` answers; the passkey
   * sign-in (`signIn.withPasskey()`) as its methods too.
   */
  readonly signIn: AuthSignInClient;
  /** `POST /sign-out`: ends the credential; `data` is `null`. */
  signOut(): Promise<AuthResult<null>>;
  /** `GET /session`: the user and the credential's expiry. */
  session(): Promise<AuthResult<AuthSessionResponse>>;
  /** `GET /me`: the bootstrap payload of a single-page app. */
  me(): Promise<AuthResult<AuthMe>>;
  /** `POST /verify-email` with the mailed token (anonymous). */
  verifyEmail(body: AuthVerifyEmailBody): Promise<AuthResult<{ user: AuthUser }>>;
  /** `POST /verify-email/resend`: mails a fresh token; `data` is `null`. */
  resendVerificationEmail(): Promise<AuthResult<null>>;
  /** Organizations and the active organization. */
  readonly organizations: AuthOrganizationsClient;
  /** Members of an organization. */
  readonly members: AuthMembersClient;
  /** Invitations of an organization, and the caller's own. */
  readonly invitations: AuthInvitationsClient;
  /** Forgotten, reset and changed passwords. */
  readonly password: AuthPasswordClient;
  /** The caller's sessions: list, revoke one, revoke the others. */
  readonly sessions: AuthSessionsClient;
  /** Changing the address. */
  readonly email: AuthEmailClient;
  /** Deleting the account. */
  readonly account: AuthAccountClient;
  /** Linking a Telegram account, and signing in with Telegram. */
  readonly telegram: AuthTelegramClient;
  /** Passwordless sign-in: mailing a sign-in link, and signing in with its token. */
  readonly emailLink: AuthEmailLinkClient;
  /** Signing in with a provider, and connecting one to the account. */
  readonly oauth: AuthOAuthClient;
  /** The account's connected provider accounts. */
  readonly identities: AuthIdentitiesClient;
  /** The account's passkeys: register one, list, rename, remove. */
  readonly passkeys: AuthPasskeysClient;
  /** The caller's second factors: TOTP and recovery codes. */
  readonly twoFactor: AuthTwoFactorClient;
}

/**
 * Creates the typed client of an auth module. Every method resolves to `{ data, error }`
 * (it rejects, with a `TypeError`, only for a path parameter that is empty, `.` or `..`, which
 * would reach another route): `data` is typed from the route's response schema, `error` is
 * `{ status, code, message }` with `code` one of the module's codes.
 *
 * @param options Where the module is and how to reach it; see {@link AuthClientOptions}.
 * @returns The client.
 *
 * @example In a browser, on the deployment's origin
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * const client = createAuthClient({ baseUrl: "/api/auth" });
 * const { data, error } = await client.signIn({ email: "ada@example.com", password: "…" });
 * if (error) console.log(error.code); // "INVALID_CREDENTIALS", "RATE_LIMITED", …
 * else if ("twoFactorRequired" in data) console.log("ask for a code:", data.methods);
 * else console.log(data.user.email);
 * ```
 *
 * @example On a server, with the Bearer token
 * ```ts
 * import { createAuthClient } from "@app/fragment-cli/client";
 *
 * let token: string | null = null;
 * const client = createAuthClient({
 *   baseUrl: "https://app.example.com/api/auth",
 *   token: () => token,
 * });
 * const { data: signedIn } = await client.signIn({ email: "ada@example.com", password: "…" });
 * token = signedIn && "token" in signedIn ? signedIn.token : null;
 * const { data } = await client.organizations.create({ name: "Acme" });
 * ```
 */
export function createAuthClient(options: AuthClientOptions): AuthClient {
  // The module client's request machinery over this client's transport (which adds `token`).
  const send: SendOperation = routeRequest(createTransport(options));
  /** `PATCH /organizations/invitations/:invitationId`: the shape of its answer follows `action`. */
  const respond = <T extends AuthInvitationAnswer>(
    invitationId: string,
    action: AuthRespondToInvitationBody["action"],
    body: InvitationTokenInput,
  ): Promise<AuthResult<T>> =>
    send(routes.respondToInvitation, {
      params: { invitationId },
      body: { ...body, action },
    }) as Promise<AuthResult<T>>;
  const passkeyClient = passkeyCalls(send, routes);
  const secondFactor = twoFactorCalls(send, routes);
  const signIn: AuthSignInClient = Object.assign(secondFactor.signIn, passkeyClient.signIn);
  return {
    signUp: (body) => send(routes.signUp, { body }),
    signIn,
    passkeys: passkeyClient.passkeys,
    twoFactor: secondFactor.twoFactor,
    signOut: () => send(routes.signOut),
    session: () => send(routes.getSession),
    me: () => send(routes.me),
    verifyEmail: (body) => send(routes.verifyEmail, { body }),
    resendVerificationEmail: () => send(routes.resendVerificationEmail),
    ...accountCalls(send, routes),
    emailLink: emailLinkCalls(send, routes),
    ...oauthCalls(send, routes, options.baseUrl),
    telegram: {
      link: () => send(routes.linkTelegram),
      unlink: () => send(routes.unlinkTelegram),
      signIn: (body) => send(routes.signInWithTelegram, { body }),
    },
    organizations: {
      create: (body) => send(routes.createOrganization, { body }),
      list: (query) => send(routes.listOrganizations, { query }),
      get: (organizationId) => send(routes.getOrganization, { params: { organizationId } }),
      update: (organizationId, body) =>
        send(routes.updateOrganization, { params: { organizationId }, body }),
      delete: (organizationId) => send(routes.deleteOrganization, { params: { organizationId } }),
      getActive: () => send(routes.getActiveOrganization),
      setActive: (organizationId) =>
        send(routes.setActiveOrganization, { body: { organizationId } }),
      transferOwnership: (organizationId, memberId) =>
        send(routes.transferOwnership, { params: { organizationId }, body: { memberId } }),
      auditLog: (organizationId, query) =>
        send(routes.listAuditLog, { params: { organizationId }, query }),
    },
    members: {
      list: (organizationId, query) =>
        send(routes.listMembers, { params: { organizationId }, query }),
      add: (organizationId, body) => send(routes.addMember, { params: { organizationId }, body }),
      updateRoles: (organizationId, memberId, body) =>
        send(routes.updateMemberRoles, { params: { organizationId, memberId }, body }),
      remove: (organizationId, memberId) =>
        send(routes.removeMember, { params: { organizationId, memberId } }),
    },
    invitations: {
      list: (organizationId, query) =>
        send(routes.listInvitations, { params: { organizationId }, query }),
      create: (organizationId, body) =>
        send(routes.createInvitation, { params: { organizationId }, body }),
      listMine: (query) => send(routes.listMyInvitations, { query }),
      accept: (invitationId, body) => respond(invitationId, "accept", body),
      reject: (invitationId, body) => respond(invitationId, "reject", body),
      cancel: (invitationId, body) => respond(invitationId, "cancel", body),
    },
  };
}
