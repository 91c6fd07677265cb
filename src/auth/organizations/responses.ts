/**
 * The answers of the organization, member and invitation operations.
 *
 * @module
 */

import { z } from "zod";
import type { PageOf } from "../../pagination/mod.ts";
import type { JsonValue } from "../../schema/mod.ts";
import { exactSchema } from "../http/exact_schema.ts";
import { type ResponseSchema, timestamp } from "../http/responses.ts";
import type {
  AuthInvitation,
  AuthInvitationEntry,
  AuthInvitationStatus,
  AuthMember,
  AuthOrganization,
  AuthOrganizationAccess,
  AuthOrganizationEntry,
} from "./resources.ts";
import type { AuthAuditEntry } from "./audit_log.ts";
import { ORGANIZATION_EVENT_NAMES, type OrganizationEventName } from "./event_types.ts";
import type { AuthOwnershipTransfer } from "./ownership_service.ts";

const jsonValue = z.json() as unknown as z.ZodType<JsonValue, JsonValue>;

/** An organization. */
export const organizationResponse: ResponseSchema<AuthOrganization> = exactSchema<
  AuthOrganization
>()(
  z.object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    logoUrl: z.string().nullable(),
    metadata: jsonValue.nullable().describe("Any JSON value the organization was given, or null"),
    requireTwoFactor: z.boolean().describe(
      "Whether members need a second factor (TOTP or a passkey) to act in the organization",
    ),
    createdBy: z.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
    deletedAt: timestamp.nullable(),
  }),
);

/** A membership. */
export const memberResponse: ResponseSchema<AuthMember> = exactSchema<AuthMember>()(z.object({
  id: z.string(),
  organizationId: z.string(),
  userId: z.string(),
  roles: z.array(z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
}));

const invitationStatus: ResponseSchema<AuthInvitationStatus> = z.enum([
  "pending",
  "accepted",
  "rejected",
  "canceled",
  "expired",
]);

/** An invitation (`token` only in its creation answer). */
export const invitationResponse: ResponseSchema<AuthInvitation> = exactSchema<AuthInvitation>()(
  z.object({
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
  }),
);

/** What the caller may do in an organization they are a member of. */
const organizationAccess: ResponseSchema<AuthOrganizationAccess> = z.enum([
  "member",
  "twoFactorRequired",
]).describe(
  '"member": act as far as the permissions go; "twoFactorRequired": the organization requires ' +
    "a second factor the caller lacks, so its routes answer 403 TWO_FACTOR_REQUIRED",
);

/** An organization with the caller's membership: `GET /organizations/:organizationId`. */
export const organizationEntryResponse: ResponseSchema<AuthOrganizationEntry> = exactSchema<
  AuthOrganizationEntry
>()(z.object({
  organization: organizationResponse,
  member: memberResponse,
  permissions: z.array(z.string()).describe(
    "The caller's effective permissions in the organization (resource:action), sorted; " +
      'empty while access is "twoFactorRequired"',
  ),
  access: organizationAccess,
}));

/** An invitation with its organization (the invitee's view). */
export const invitationEntryResponse: ResponseSchema<AuthInvitationEntry> = exactSchema<
  AuthInvitationEntry
>()(z.object({ invitation: invitationResponse, organization: organizationResponse }));

const pageFields = { cursor: z.string().nullable(), hasNextPage: z.boolean() };

/** The answer of `GET /organizations`. */
export const organizationPageResponse: ResponseSchema<
  PageOf<"organizations", AuthOrganizationEntry>
> = exactSchema<
  { organizations: AuthOrganizationEntry[]; cursor: string | null; hasNextPage: boolean }
>()(
  z.object({ organizations: z.array(organizationEntryResponse), ...pageFields }),
);

/** The answer of `POST /organizations` (201). */
export const createdOrganizationResponse: ResponseSchema<AuthOrganizationEntry> =
  organizationEntryResponse;

/** The answer of `PATCH /organizations/:organizationId`. */
export const updatedOrganizationResponse: ResponseSchema<{ organization: AuthOrganization }> =
  exactSchema<{ organization: AuthOrganization }>()(
    z.object({ organization: organizationResponse }),
  );

/** The answer of `GET` and `POST /organizations/active`: the entry, or `null` for none. */
export const activeOrganizationResponse: ResponseSchema<AuthOrganizationEntry | null> =
  organizationEntryResponse.nullable();

/** The answer of `GET /organizations/:organizationId/members`. */
export const memberPageResponse: ResponseSchema<PageOf<"members", AuthMember>> = exactSchema<
  { members: AuthMember[]; cursor: string | null; hasNextPage: boolean }
>()(z.object({ members: z.array(memberResponse), ...pageFields }));

/** The answer of adding a member (201) or changing their roles. */
export const memberEntryResponse: ResponseSchema<{ member: AuthMember }> = exactSchema<
  { member: AuthMember }
>()(z.object({ member: memberResponse }));

/** The answer of `GET /organizations/:organizationId/invitations`. */
export const invitationPageResponse: ResponseSchema<PageOf<"invitations", AuthInvitation>> =
  exactSchema<{ invitations: AuthInvitation[]; cursor: string | null; hasNextPage: boolean }>()(
    z.object({ invitations: z.array(invitationResponse), ...pageFields }),
  );

/** The caller's pending invitations: `GET /organizations/invitations`. */
export const pendingInvitationPageResponse: ResponseSchema<
  PageOf<"invitations", AuthInvitationEntry>
> = exactSchema<
  { invitations: AuthInvitationEntry[]; cursor: string | null; hasNextPage: boolean }
>()(
  z.object({ invitations: z.array(invitationEntryResponse), ...pageFields }),
);

/** An invitation as its creator sees it: with the token to pass on to the invitee. */
export type CreatedInvitation = AuthInvitation & { token: string };

/** The answer of `POST /organizations/:organizationId/invitations` (201, or 200 for a re-send). */
export const createdInvitationResponse: ResponseSchema<{ invitation: CreatedInvitation }> = z
  .object({
    invitation: z.intersection(invitationResponse, z.object({ token: z.string() })),
  });

/** The answer of rejecting or canceling an invitation. */
export const respondedInvitationResponse: ResponseSchema<{ invitation: AuthInvitation }> =
  exactSchema<
    { invitation: AuthInvitation }
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
export interface AuthAcceptedInvitation {
  /** The invitation, now `accepted`. */
  invitation: AuthInvitation;
  /** The organization joined. */
  organization: AuthOrganization;
  /** The caller's membership in it. */
  member: AuthMember;
}

/** The answer of accepting an invitation. */
export const acceptedInvitationResponse: ResponseSchema<AuthAcceptedInvitation> = exactSchema<
  AuthAcceptedInvitation
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
  AuthAcceptedInvitation | { invitation: AuthInvitation }
> = z.union([acceptedInvitationResponse, respondedInvitationResponse]);

/** An entry of the audit log. */
export const auditEntryResponse: ResponseSchema<AuthAuditEntry> = exactSchema<AuthAuditEntry>()(
  z.object({
    id: z.string(),
    action: z.enum(ORGANIZATION_EVENT_NAMES as [OrganizationEventName, ...OrganizationEventName[]]),
    actorUserId: z.string().nullable().describe("Who acted; null for the server or an expiry"),
    target: z.object({
      type: z.enum(["organization", "member", "invitation"]),
      id: z.string(),
    }),
    data: z.record(z.string(), jsonValue).describe("The action's details; never a token"),
    createdAt: timestamp,
  }),
);

/** A page of the audit log: `GET /organizations/:organizationId/audit-log`. */
export const auditLogPageResponse: ResponseSchema<PageOf<"entries", AuthAuditEntry>> = exactSchema<
  { entries: AuthAuditEntry[]; cursor: string | null; hasNextPage: boolean }
>()(
  z.object({ entries: z.array(auditEntryResponse), ...pageFields }),
);

/** The answer of `POST /organizations/:organizationId/transfer-ownership`. */
export const ownershipTransferResponse: ResponseSchema<AuthOwnershipTransfer> = exactSchema<
  AuthOwnershipTransfer
>()(z.object({ member: memberResponse, previousOwner: memberResponse }));
