/**
 * The auth module's HTTP contract as one type: for every route a client calls, the types of its
 * query, body (what a client sends) and answer. Each is a named type that the route's zod schema
 * is declared with through `exactSchema` (the body schemas in `credential_inputs.ts` and
 * `organizations/bodies.ts`, the answers in `responses.ts`: the very objects the routes declare,
 * which the OpenAPI document is generated from), so a schema cannot drift from its type. Types
 * only: the typed client (`src/client/`) is built on them with `import type`, so none of the
 * server's code reaches a browser bundle; `tests/client/auth_client_types.test.ts` checks them
 * against the schemas.
 *
 * @module
 */

import type { AuthApiPageOf, AuthCreatedInvitation } from "./api.ts";
import type {
  ChangeEmailBody,
  ChangePasswordBody,
  ConfirmEmailChangeBody,
  DeleteAccountBody,
  DeletedAccount,
  ForgotPasswordBody,
  ForgotPasswordResponse,
  ListedSession,
  ResetPasswordBody,
  RevokedSessions,
} from "./account/mod.ts";
import type { CredentialsBody, VerifyEmailBody } from "./credential_inputs.ts";
import type { MePayload } from "./me/mod.ts";
import type {
  AddMemberBody,
  CreateInvitationBody,
  CreateOrganizationBody,
  RespondToInvitationBody,
  SetActiveOrganizationBody,
  UpdateMemberRolesBody,
  UpdateOrganizationBody,
} from "./organizations/bodies.ts";
import type {
  Invitation,
  InvitationEntry,
  Member,
  Organization,
  OrganizationEntry,
} from "./organizations/resources.ts";
import type { AcceptedInvitation, CredentialResponse, SessionResponse } from "./responses.ts";
import type { AuthUser } from "./user_store.ts";

/**
 * The query of every list route (`pageSize`, `cursor`), as strings.
 *
 * @example
 * ```ts
 * import type { AuthPageQuery } from "@app/fragment-cli/auth";
 *
 * const next: AuthPageQuery = { pageSize: "50", cursor: "eyJ2Ijox…" };
 * const url = `/api/auth/organizations?${new URLSearchParams({ ...next })}`;
 * ```
 */
export interface AuthPageQuery {
  /** Items per page, 1–100 (default 20). */
  pageSize?: string;
  /** The `cursor` of the previous page's answer. */
  cursor?: string;
}

/**
 * One route: what goes in (body, query) and what comes out (`null`: nothing, or a 204).
 *
 * @example
 * ```ts
 * import type { AuthContract, AuthRouteContract } from "@app/fragment-cli/auth";
 *
 * type Answer<R> = R extends AuthRouteContract<unknown, unknown, infer T> ? T : never;
 * type Me = Answer<AuthContract["me"]>; // AuthMe
 * ```
 */
export interface AuthRouteContract<Body, Query, Response> {
  /** The JSON body the route reads, `null` for none. */
  body: Body;
  /** The query string the route reads, `null` for none. */
  query: Query;
  /** The JSON answer, `null` for none (a 204). */
  response: Response;
}

/**
 * The routes of the auth module a client calls, by operation, with their request and answer
 * types (the declared types of the routes' zod schemas).
 *
 * @example Type a hand-written call
 * ```ts
 * import type { AuthContract } from "@app/fragment-cli/auth";
 *
 * type SignUp = AuthContract["signUp"];
 * const body: SignUp["body"] = { email: "ada@example.com", password: "correct horse" };
 * const response = await fetch("/api/auth/sign-up", { method: "POST", body: JSON.stringify(body) });
 * const { token, user }: SignUp["response"] = await response.json();
 * ```
 */
export interface AuthContract {
  /** `POST /sign-up` */
  signUp: AuthRouteContract<CredentialsBody, null, CredentialResponse>;
  /** `POST /sign-in` */
  signIn: AuthRouteContract<CredentialsBody, null, CredentialResponse>;
  /** `POST /sign-out` (204) */
  signOut: AuthRouteContract<null, null, null>;
  /** `GET /session` */
  session: AuthRouteContract<null, null, SessionResponse>;
  /** `GET /me` */
  me: AuthRouteContract<null, null, MePayload>;
  /** `POST /verify-email` */
  verifyEmail: AuthRouteContract<VerifyEmailBody, null, { user: AuthUser }>;
  /** `POST /verify-email/resend` (204) */
  resendVerificationEmail: AuthRouteContract<null, null, null>;
  /** `POST /password/forgot` (202) */
  forgotPassword: AuthRouteContract<ForgotPasswordBody, null, ForgotPasswordResponse>;
  /** `POST /password/reset` */
  resetPassword: AuthRouteContract<ResetPasswordBody, null, { user: AuthUser }>;
  /** `POST /password/change` */
  changePassword: AuthRouteContract<
    ChangePasswordBody,
    null,
    { user: AuthUser; revokedSessions: number }
  >;
  /** `GET /sessions` */
  listSessions: AuthRouteContract<null, null, { sessions: ListedSession[] }>;
  /** `DELETE /sessions/:sessionId` (204) */
  revokeSession: AuthRouteContract<null, null, null>;
  /** `POST /sessions/revoke-others` */
  revokeOtherSessions: AuthRouteContract<null, null, RevokedSessions>;
  /** `POST /email/change` (202) */
  changeEmail: AuthRouteContract<ChangeEmailBody, null, ForgotPasswordResponse>;
  /** `POST /email/change/confirm` */
  confirmEmailChange: AuthRouteContract<ConfirmEmailChangeBody, null, { user: AuthUser }>;
  /** `POST /account/delete` */
  deleteAccount: AuthRouteContract<DeleteAccountBody, null, DeletedAccount>;
  /** `POST /organizations` (201) */
  createOrganization: AuthRouteContract<CreateOrganizationBody, null, OrganizationEntry>;
  /** `GET /organizations` */
  listOrganizations: AuthRouteContract<
    null,
    AuthPageQuery,
    AuthApiPageOf & { organizations: OrganizationEntry[] }
  >;
  /** `GET /organizations/:organizationId` */
  getOrganization: AuthRouteContract<null, null, OrganizationEntry>;
  /** `PATCH /organizations/:organizationId` */
  updateOrganization: AuthRouteContract<
    UpdateOrganizationBody,
    null,
    { organization: Organization }
  >;
  /** `DELETE /organizations/:organizationId` (204) */
  deleteOrganization: AuthRouteContract<null, null, null>;
  /** `GET /organizations/active` */
  getActiveOrganization: AuthRouteContract<null, null, OrganizationEntry | null>;
  /** `POST /organizations/active` */
  setActiveOrganization: AuthRouteContract<
    SetActiveOrganizationBody,
    null,
    OrganizationEntry | null
  >;
  /** `GET /organizations/:organizationId/members` */
  listMembers: AuthRouteContract<null, AuthPageQuery, AuthApiPageOf & { members: Member[] }>;
  /** `POST /organizations/:organizationId/members` (201) */
  addMember: AuthRouteContract<AddMemberBody, null, { member: Member }>;
  /** `PATCH /organizations/:organizationId/members/:memberId` */
  updateMemberRoles: AuthRouteContract<UpdateMemberRolesBody, null, { member: Member }>;
  /** `DELETE /organizations/:organizationId/members/:memberId` (204) */
  removeMember: AuthRouteContract<null, null, null>;
  /** `GET /organizations/:organizationId/invitations` */
  listInvitations: AuthRouteContract<
    null,
    AuthPageQuery,
    AuthApiPageOf & { invitations: Invitation[] }
  >;
  /** `POST /organizations/:organizationId/invitations` (201, 200 for a re-send) */
  createInvitation: AuthRouteContract<
    CreateInvitationBody,
    null,
    { invitation: AuthCreatedInvitation }
  >;
  /** `GET /organizations/invitations` (the caller's pending ones) */
  listMyInvitations: AuthRouteContract<
    null,
    AuthPageQuery,
    AuthApiPageOf & { invitations: InvitationEntry[] }
  >;
  /** `PATCH /organizations/invitations/:invitationId` with `action: "accept"` */
  acceptInvitation: AuthRouteContract<RespondToInvitationBody, null, AcceptedInvitation>;
  /** `PATCH /organizations/invitations/:invitationId` with `action: "reject"` or `"cancel"` */
  respondToInvitation: AuthRouteContract<
    RespondToInvitationBody,
    null,
    { invitation: Invitation }
  >;
}
