/**
 * The auth module's HTTP contract as one type: for every route a client calls, the types of its
 * path parameters, query, body (`z.input` of the route's schema: what a client sends) and answer
 * (`z.output` of its response schema in `responses.ts`: the very objects the routes declare as
 * their `responses`, which the OpenAPI document is generated from). Types only: the typed client
 * (`src/client/`) is built on it with `import type`, so none of the server's code reaches a
 * browser bundle, and a schema change changes the client's types with it.
 *
 * @module
 */

import type { z } from "zod";
import type { signInBody, signUpBody, verifyEmailBody } from "./credential_inputs.ts";
import type { pageQuery } from "./organizations/input.ts";
import type {
  invitationBodies,
  memberBodies,
  organizationBodies,
  respondToInvitationBody,
  setActiveOrganizationBody,
} from "./organizations/bodies.ts";
import type {
  acceptedInvitationResponse,
  activeOrganizationResponse,
  createdInvitationResponse,
  createdOrganizationResponse,
  credentialResponse,
  invitationPageResponse,
  memberEntryResponse,
  memberPageResponse,
  meResponse,
  organizationEntryResponse,
  organizationPageResponse,
  pendingInvitationPageResponse,
  respondedInvitationResponse,
  sessionResponse,
  updatedOrganizationResponse,
  verifyEmailResponse,
} from "./responses.ts";

type OrganizationBodies = ReturnType<typeof organizationBodies>;
type MemberBodies = ReturnType<typeof memberBodies>;
type InvitationBodies = ReturnType<typeof invitationBodies>;

/**
 * The query of every list route (`pageSize`, `cursor`), as strings.
 *
 * @example
 * ```ts
 * import type { AuthPageQuery } from "./contract.ts";
 *
 * const next: AuthPageQuery = { pageSize: "50", cursor: "eyJ2Ijox…" };
 * ```
 */
export type AuthPageQuery = z.input<typeof pageQuery>;

/**
 * One route: what goes in (body, query) and what comes out (`null`: nothing, or a 204).
 *
 * @example
 * ```ts
 * import type { AuthContract } from "./contract.ts";
 *
 * type Me = AuthContract["me"]["response"]; // an AuthRouteContract's answer type
 * ```
 */
export interface AuthRouteContract<Body, Query, Response> {
  body: Body;
  query: Query;
  response: Response;
}

/**
 * The routes of the auth module a client calls, by operation, with request and answer types
 * taken from the routes' zod schemas.
 *
 * @example Type a hand-written call
 * ```ts
 * import type { AuthContract } from "./contract.ts";
 *
 * type SignUp = AuthContract["signUp"];
 * const body: SignUp["body"] = { email: "ada@example.com", password: "correct horse" };
 * ```
 */
export interface AuthContract {
  /** `POST /sign-up` */
  signUp: AuthRouteContract<z.input<typeof signUpBody>, null, z.output<typeof credentialResponse>>;
  /** `POST /sign-in` */
  signIn: AuthRouteContract<z.input<typeof signInBody>, null, z.output<typeof credentialResponse>>;
  /** `POST /sign-out` (204) */
  signOut: AuthRouteContract<null, null, null>;
  /** `GET /session` */
  session: AuthRouteContract<null, null, z.output<typeof sessionResponse>>;
  /** `GET /me` */
  me: AuthRouteContract<null, null, z.output<typeof meResponse>>;
  /** `POST /verify-email` */
  verifyEmail: AuthRouteContract<
    z.input<typeof verifyEmailBody>,
    null,
    z.output<typeof verifyEmailResponse>
  >;
  /** `POST /verify-email/resend` (204) */
  resendVerificationEmail: AuthRouteContract<null, null, null>;
  /** `POST /organizations` (201) */
  createOrganization: AuthRouteContract<
    z.input<OrganizationBodies["create"]>,
    null,
    z.output<typeof createdOrganizationResponse>
  >;
  /** `GET /organizations` */
  listOrganizations: AuthRouteContract<
    null,
    AuthPageQuery,
    z.output<typeof organizationPageResponse>
  >;
  /** `GET /organizations/:organizationId` */
  getOrganization: AuthRouteContract<null, null, z.output<typeof organizationEntryResponse>>;
  /** `PATCH /organizations/:organizationId` */
  updateOrganization: AuthRouteContract<
    z.input<OrganizationBodies["update"]>,
    null,
    z.output<typeof updatedOrganizationResponse>
  >;
  /** `DELETE /organizations/:organizationId` (204) */
  deleteOrganization: AuthRouteContract<null, null, null>;
  /** `GET /organizations/active` */
  getActiveOrganization: AuthRouteContract<
    null,
    null,
    z.output<typeof activeOrganizationResponse>
  >;
  /** `POST /organizations/active` */
  setActiveOrganization: AuthRouteContract<
    z.input<typeof setActiveOrganizationBody>,
    null,
    z.output<typeof activeOrganizationResponse>
  >;
  /** `GET /organizations/:organizationId/members` */
  listMembers: AuthRouteContract<null, AuthPageQuery, z.output<typeof memberPageResponse>>;
  /** `POST /organizations/:organizationId/members` (201) */
  addMember: AuthRouteContract<
    z.input<MemberBodies["add"]>,
    null,
    z.output<typeof memberEntryResponse>
  >;
  /** `PATCH /organizations/:organizationId/members/:memberId` */
  updateMemberRoles: AuthRouteContract<
    z.input<MemberBodies["updateRoles"]>,
    null,
    z.output<typeof memberEntryResponse>
  >;
  /** `DELETE /organizations/:organizationId/members/:memberId` (204) */
  removeMember: AuthRouteContract<null, null, null>;
  /** `GET /organizations/:organizationId/invitations` */
  listInvitations: AuthRouteContract<
    null,
    AuthPageQuery,
    z.output<typeof invitationPageResponse>
  >;
  /** `POST /organizations/:organizationId/invitations` (201, 200 for a re-send) */
  createInvitation: AuthRouteContract<
    z.input<InvitationBodies["create"]>,
    null,
    z.output<typeof createdInvitationResponse>
  >;
  /** `GET /organizations/invitations` (the caller's pending ones) */
  listMyInvitations: AuthRouteContract<
    null,
    AuthPageQuery,
    z.output<typeof pendingInvitationPageResponse>
  >;
  /** `PATCH /organizations/invitations/:invitationId` with `action: "accept"` */
  acceptInvitation: AuthRouteContract<
    z.input<typeof respondToInvitationBody>,
    null,
    z.output<typeof acceptedInvitationResponse>
  >;
  /** `PATCH /organizations/invitations/:invitationId` with `action: "reject"` or `"cancel"` */
  respondToInvitation: AuthRouteContract<
    z.input<typeof respondToInvitationBody>,
    null,
    z.output<typeof respondedInvitationResponse>
  >;
}
