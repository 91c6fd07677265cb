/**
 * The JSON answers of the auth module's routes as zod schemas, each checked exactly (see
 * `exact_schema.ts`) against the type its handler builds. They are the one set: the routes declare
 * these very objects as their `responses` (documented in `GET /openapi.json`), `AuthContract` (and
 * through it the typed client, `src/client/`) takes its result types from them, and the client's
 * tests parse every answer they receive with them.
 *
 * @module
 */

import { z } from "zod";
import type { JsonValue } from "../schema/mod.ts";
import type { MePayload } from "./me/mod.ts";
import { exactSchema } from "./exact_schema.ts";
import type {
  Invitation,
  InvitationEntry,
  InvitationStatus,
  Member,
  Organization,
  OrganizationEntry,
} from "./organizations/resources.ts";
import type { AuthUser } from "./user_store.ts";

/** A schema of an answer: what it accepts is what it yields. */
export type ResponseSchema<T> = z.ZodType<T, T>;

const timestamp = z.iso.datetime().describe(
  "ISO 8601 UTC timestamp, e.g. 2026-11-21T15:05:58.123Z",
);
const jsonValue = z.json() as unknown as z.ZodType<JsonValue, JsonValue>;

/** A user: `{ id, email, role, emailVerified }`. */
export const userResponse: ResponseSchema<AuthUser> = exactSchema<AuthUser>()(z.object({
  id: z.string(),
  email: z.string(),
  role: z.string(),
  emailVerified: z.boolean(),
}));

const sessionExpiry = z.iso.datetime().describe("When the session expires (ISO 8601 UTC)");

/**
 * The answer of `POST /sign-up` and `POST /sign-in`: the new credential and its user.
 *
 * @example Keep the token on a server-side client
 * ```ts
 * import type { AuthCredentialResponse } from "@app/fragment-cli/auth";
 *
 * const response = await fetch("https://app.example.com/api/auth/sign-in", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ email: "ada@example.com", password: "correct horse" }),
 * });
 * const { token, user, expiresAt }: AuthCredentialResponse = await response.json();
 * console.log(user.email, expiresAt, token.length);
 * ```
 */
export interface CredentialResponse {
  /** The credential, for `Authorization: Bearer` (the same one is set as the cookie). */
  token: string;
  /** The signed-in user. */
  user: AuthUser;
  /** When the credential expires (ISO 8601). */
  expiresAt: string;
}

/** The answer of `POST /sign-up` and `POST /sign-in`. */
export const credentialResponse: ResponseSchema<CredentialResponse> = exactSchema<
  CredentialResponse
>()(z.object({
  token: z.string().describe("Also set as the service_auth cookie; send as Authorization: Bearer"),
  user: userResponse,
  expiresAt: sessionExpiry,
}));

/**
 * The answer of `GET /session`: the credential's user and when the credential expires.
 *
 * @example
 * ```ts
 * import type { AuthSessionResponse } from "@app/fragment-cli/auth";
 *
 * const session: AuthSessionResponse = await (await fetch("/api/auth/session")).json();
 * const minutesLeft = (Date.parse(session.expiresAt) - Date.now()) / 60_000;
 * ```
 */
export interface SessionResponse {
  /** The signed-in user. */
  user: AuthUser;
  /** When the credential expires (ISO 8601). */
  expiresAt: string;
}

/** The answer of `GET /session`. */
export const sessionResponse: ResponseSchema<SessionResponse> = exactSchema<SessionResponse>()(
  z.object({ user: userResponse, expiresAt: sessionExpiry }),
);

/** The answer of `POST /verify-email`. */
export const verifyEmailResponse: ResponseSchema<{ user: AuthUser }> = exactSchema<
  { user: AuthUser }
>()(z.object({ user: userResponse }));

/** An organization. */
export const organizationResponse: ResponseSchema<Organization> = exactSchema<Organization>()(
  z.object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    logoUrl: z.string().nullable(),
    metadata: jsonValue.nullable().describe("Any JSON value the organization was given, or null"),
    createdBy: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
    deletedAt: timestamp.nullable(),
  }),
);

/** A membership. */
export const memberResponse: ResponseSchema<Member> = exactSchema<Member>()(z.object({
  id: z.string(),
  organizationId: z.string(),
  userId: z.string(),
  roles: z.array(z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
}));

const invitationStatus: ResponseSchema<InvitationStatus> = z.enum([
  "pending",
  "accepted",
  "rejected",
  "canceled",
  "expired",
]);

/** An invitation (`token` only in its creation answer). */
export const invitationResponse: ResponseSchema<Invitation> = exactSchema<Invitation>()(z.object({
  id: z.string(),
  organizationId: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  status: invitationStatus,
  inviterId: z.string(),
  expiresAt: timestamp,
  createdAt: timestamp,
  respondedAt: timestamp.nullable(),
  token: z.string().optional(),
}));

/** An organization with the caller's membership: `GET /organizations/:organizationId`. */
export const organizationEntryResponse: ResponseSchema<OrganizationEntry> = exactSchema<
  OrganizationEntry
>()(z.object({ organization: organizationResponse, member: memberResponse }));

/** An invitation with its organization (the invitee's view). */
export const invitationEntryResponse: ResponseSchema<InvitationEntry> = exactSchema<
  InvitationEntry
>()(z.object({ invitation: invitationResponse, organization: organizationResponse }));

/** The answer of `GET /me`; without the organizations feature its lists are empty. */
export const meResponse: ResponseSchema<MePayload> = exactSchema<MePayload>()(z.object({
  user: userResponse,
  organizations: z.array(organizationEntryResponse),
  organizationsHasMore: z.boolean(),
  activeOrganization: organizationEntryResponse.nullable(),
  invitations: z.array(invitationEntryResponse),
  invitationsHasMore: z.boolean(),
}));

/** The paging fields of every list answer. */
export interface PageFields {
  /** The cursor of the next page (pass it as `cursor`), `null` on the last page. */
  cursor: string | null;
  hasNextPage: boolean;
}

const pageFields = { cursor: z.string().nullable(), hasNextPage: z.boolean() };

/** The answer of `GET /organizations`. */
export const organizationPageResponse: ResponseSchema<
  PageFields & { organizations: OrganizationEntry[] }
> = exactSchema<
  { organizations: OrganizationEntry[]; cursor: string | null; hasNextPage: boolean }
>()(
  z.object({ organizations: z.array(organizationEntryResponse), ...pageFields }),
);

/** The answer of `POST /organizations` (201). */
export const createdOrganizationResponse: ResponseSchema<OrganizationEntry> =
  organizationEntryResponse;

/** The answer of `PATCH /organizations/:organizationId`. */
export const updatedOrganizationResponse: ResponseSchema<{ organization: Organization }> =
  exactSchema<{ organization: Organization }>()(z.object({ organization: organizationResponse }));

/** The answer of `GET` and `POST /organizations/active`: the entry, or `null` for none. */
export const activeOrganizationResponse: ResponseSchema<OrganizationEntry | null> =
  organizationEntryResponse.nullable();

/** The answer of `GET /organizations/:organizationId/members`. */
export const memberPageResponse: ResponseSchema<PageFields & { members: Member[] }> = exactSchema<
  { members: Member[]; cursor: string | null; hasNextPage: boolean }
>()(z.object({ members: z.array(memberResponse), ...pageFields }));

/** The answer of adding a member (201) or changing their roles. */
export const memberEntryResponse: ResponseSchema<{ member: Member }> = exactSchema<
  { member: Member }
>()(z.object({ member: memberResponse }));

/** The answer of `GET /organizations/:organizationId/invitations`. */
export const invitationPageResponse: ResponseSchema<PageFields & { invitations: Invitation[] }> =
  exactSchema<{ invitations: Invitation[]; cursor: string | null; hasNextPage: boolean }>()(
    z.object({ invitations: z.array(invitationResponse), ...pageFields }),
  );

/** The caller's pending invitations: `GET /organizations/invitations`. */
export const pendingInvitationPageResponse: ResponseSchema<
  PageFields & { invitations: InvitationEntry[] }
> = exactSchema<{ invitations: InvitationEntry[]; cursor: string | null; hasNextPage: boolean }>()(
  z.object({ invitations: z.array(invitationEntryResponse), ...pageFields }),
);

/** An invitation as its creator sees it: with the token to pass on to the invitee. */
export type CreatedInvitation = Invitation & { token: string };

/** The answer of `POST /organizations/:organizationId/invitations` (201, or 200 for a re-send). */
export const createdInvitationResponse: ResponseSchema<{ invitation: CreatedInvitation }> = z
  .object({
    invitation: z.intersection(invitationResponse, z.object({ token: z.string() })),
  });

/** The answer of rejecting or canceling an invitation. */
export const respondedInvitationResponse: ResponseSchema<{ invitation: Invitation }> = exactSchema<
  { invitation: Invitation }
>()(z.object({ invitation: invitationResponse }));

/**
 * The answer of accepting an invitation: the invitation, its organization and the new (or
 * existing) membership.
 *
 * @example
 * ```ts
 * import type { AuthAcceptedInvitation } from "@app/fragment-cli/auth";
 *
 * function welcome({ organization, member }: AuthAcceptedInvitation): string {
 *   return `Welcome to ${organization.name} (${member.roles.join(", ")})`;
 * }
 * ```
 */
export interface AcceptedInvitation {
  /** The invitation, now `accepted`. */
  invitation: Invitation;
  /** The organization joined. */
  organization: Organization;
  /** The caller's membership in it. */
  member: Member;
}

/** The answer of accepting an invitation. */
export const acceptedInvitationResponse: ResponseSchema<AcceptedInvitation> = exactSchema<
  AcceptedInvitation
>()(z.object({
  invitation: invitationResponse,
  organization: organizationResponse,
  member: memberResponse,
}));

/**
 * The answer of `PATCH /organizations/invitations/:invitationId`: {@link acceptedInvitationResponse}
 * for `accept`, {@link respondedInvitationResponse} for `reject` and `cancel`.
 */
export const invitationActionResponse: ResponseSchema<
  AcceptedInvitation | { invitation: Invitation }
> = z.union([acceptedInvitationResponse, respondedInvitationResponse]);
