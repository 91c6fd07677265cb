/**
 * The request bodies of the organizations routes, with their declared types (checked exactly
 * against the schemas by `exactSchema`). Some depend on the module's options (the configured
 * roles, the metadata size limit), so they are built per instance; the typed client reads their
 * types from the factories' return types.
 *
 * @module
 */

import { z } from "zod";
import type { JsonValue } from "../../schema/mod.ts";
import { emailSchema } from "../account/email_address.ts";
import { exactSchema } from "../http/exact_schema.ts";
import { logoUrlSchema, metadataSchema, nameSchema, rolesSchema, slugSchema } from "./input.ts";

/**
 * The body of `POST /organizations` (`client.organizations.create`).
 *
 * @example
 * ```ts
 * import type { AuthCreateOrganizationBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthCreateOrganizationBody = { name: "Acme", slug: "acme", metadata: { plan: "pro" } };
 * ```
 */
export interface AuthCreateOrganizationBody {
  /** The name, 1–120 characters after trimming. */
  name: string;
  /** The slug; derived from the name when left out (409 `SLUG_TAKEN` when in use). */
  slug?: string | undefined;
  /** An http or https URL, or `null`. */
  logoUrl?: string | null | undefined;
  /** Any JSON value, bounded by `organizations.maxMetadataBytes`. */
  metadata?: JsonValue | undefined;
}

/**
 * The body of `PATCH /organizations/:organizationId` (`client.organizations.update`): at least
 * one field; those left out keep their value.
 *
 * @example
 * ```ts
 * import type { AuthUpdateOrganizationBody } from "@app/fragment-cli/auth";
 *
 * const rename: AuthUpdateOrganizationBody = { name: "Acme Inc.", logoUrl: null };
 * const secure: AuthUpdateOrganizationBody = { requireTwoFactor: true };
 * ```
 */
export interface AuthUpdateOrganizationBody {
  /** The new name, 1–120 characters after trimming. */
  name?: string | undefined;
  /** The new slug (409 `SLUG_TAKEN` when in use). */
  slug?: string | undefined;
  /** An http or https URL, or `null` to remove the logo. */
  logoUrl?: string | null | undefined;
  /** Any JSON value, replacing the previous one. */
  metadata?: JsonValue | undefined;
  /**
   * Whether members need a second factor (TOTP or a passkey) to act in the organization. Turning
   * it on is 409 `TWO_FACTOR_NOT_ENABLED` unless the caller has one; an owner without one may
   * still turn it off (with this field alone).
   */
  requireTwoFactor?: boolean | undefined;
}

/**
 * The body of `POST /organizations/active` (`null` clears it).
 *
 * @example
 * ```ts
 * import type { AuthSetActiveOrganizationBody } from "@app/fragment-cli/auth";
 *
 * const clear: AuthSetActiveOrganizationBody = { organizationId: null };
 * ```
 */
export interface AuthSetActiveOrganizationBody {
  /** The organization to make active (the caller must be a member), or `null`. */
  organizationId: string | null;
}

/**
 * The body of `POST /organizations/:organizationId/members` (`client.members.add`).
 *
 * @example
 * ```ts
 * import type { AuthAddMemberBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthAddMemberBody = { userId: "5f0c2d4e-8b1a-4c3d-9e2f-1a2b3c4d5e6f", roles: ["member"] };
 * ```
 */
export interface AuthAddMemberBody {
  /** The user to add. */
  userId: string;
  /** Configured roles (`organizations.roles`); `organizations.defaultMemberRoles` when left out. */
  roles?: string[] | undefined;
}

/**
 * The body of `PATCH /organizations/:organizationId/members/:memberId`: the member's new roles.
 *
 * @example
 * ```ts
 * import type { AuthUpdateMemberRolesBody } from "@app/fragment-cli/auth";
 *
 * const promote: AuthUpdateMemberRolesBody = { roles: ["admin"] };
 * ```
 */
export interface AuthUpdateMemberRolesBody {
  /** Configured roles, at least one; they replace the current ones. */
  roles: string[];
}

/**
 * The body of `POST /organizations/:organizationId/invitations` (`client.invitations.create`).
 *
 * @example
 * ```ts
 * import type { AuthCreateInvitationBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthCreateInvitationBody = { email: "grace@example.com", roles: ["admin"] };
 * ```
 */
export interface AuthCreateInvitationBody {
  /** The invitee's address; only a user with this verified address can answer. */
  email: string;
  /** Configured roles granted on acceptance; `organizations.defaultMemberRoles` when left out. */
  roles?: string[] | undefined;
}

/**
 * The body of `PATCH /organizations/invitations/:invitationId`: accept or reject (the invitee),
 * or cancel (the inviter, owners and admins), with the invitation's token.
 *
 * @example
 * ```ts
 * import type { AuthRespondToInvitationBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthRespondToInvitationBody = { action: "accept", token: "k3J9…" };
 * ```
 */
export interface AuthRespondToInvitationBody {
  /** What to do with the invitation. */
  action: "accept" | "reject" | "cancel";
  /**
   * The invitation's token (from the invitation mail, or the creation answer). Required to
   * cancel; the invitee may leave it out to accept or reject: their verified address (the one
   * the invitation was sent to) proves it is theirs, as `GET /me` lists it.
   */
  token?: string | undefined;
}

/** The organization bodies; `maxMetadataBytes` bounds `metadata`. */
export function organizationBodies(maxMetadataBytes: number): {
  create: z.ZodType<AuthCreateOrganizationBody, AuthCreateOrganizationBody>;
  update: z.ZodType<AuthUpdateOrganizationBody, AuthUpdateOrganizationBody>;
} {
  const metadata = metadataSchema(maxMetadataBytes);
  return {
    create: exactSchema<AuthCreateOrganizationBody>()(z.object({
      name: nameSchema,
      slug: slugSchema.optional(),
      logoUrl: logoUrlSchema.nullable().optional(),
      metadata: metadata.optional(),
    })),
    update: exactSchema<AuthUpdateOrganizationBody>()(
      z.object({
        name: nameSchema.optional(),
        slug: slugSchema.optional(),
        logoUrl: logoUrlSchema.nullable().optional(),
        metadata: metadata.optional(),
        requireTwoFactor: z.boolean().optional(),
      }).refine(
        (body) => Object.values(body).some((value) => value !== undefined),
        "Give at least one of name, slug, logoUrl, metadata, requireTwoFactor",
      ),
    ),
  };
}

/** The body of `POST /organizations/active`. */
export const setActiveOrganizationBody: z.ZodType<
  AuthSetActiveOrganizationBody,
  AuthSetActiveOrganizationBody
> = exactSchema<AuthSetActiveOrganizationBody>()(
  z.object({ organizationId: z.string().nullable() }),
);

/** The member bodies; `roles` are the configured ones. */
export function memberBodies(roles: readonly string[]): {
  add: z.ZodType<AuthAddMemberBody, AuthAddMemberBody>;
  updateRoles: z.ZodType<AuthUpdateMemberRolesBody, AuthUpdateMemberRolesBody>;
} {
  const roleList = rolesSchema(roles);
  return {
    add: exactSchema<AuthAddMemberBody>()(
      z.object({ userId: z.string(), roles: roleList.optional() }),
    ),
    updateRoles: exactSchema<AuthUpdateMemberRolesBody>()(z.object({ roles: roleList })),
  };
}

/** The invitation bodies; `roles` are the configured ones. */
export function invitationBodies(roles: readonly string[]): {
  create: z.ZodType<AuthCreateInvitationBody, AuthCreateInvitationBody>;
} {
  return {
    create: exactSchema<AuthCreateInvitationBody>()(
      z.object({ email: emailSchema, roles: rolesSchema(roles).optional() }),
    ),
  };
}

/** The body of `PATCH /organizations/invitations/:invitationId`. */
export const respondToInvitationBody: z.ZodType<
  AuthRespondToInvitationBody,
  AuthRespondToInvitationBody
> = exactSchema<AuthRespondToInvitationBody>()(
  z.object({
    action: z.enum(["accept", "reject", "cancel"]),
    token: z.string().min(1).max(256).optional(),
  }).superRefine((body, context) => {
    if (body.action === "cancel" && body.token === undefined) {
      context.addIssue({ code: "custom", path: ["token"], message: "Required to cancel" });
    }
  }),
);

/**
 * The body of `POST /organizations/:organizationId/transfer-ownership`: the member (not user) id
 * of the new owner.
 *
 * @example
 * ```ts
 * import type { AuthTransferOwnershipBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthTransferOwnershipBody = { memberId: "9d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6" };
 * ```
 */
export interface AuthTransferOwnershipBody {
  /** The membership id of the member who becomes owner (`GET …/members` lists them). */
  memberId: string;
}

/** The body of `POST /organizations/:organizationId/transfer-ownership`. */
export const transferOwnershipBody: z.ZodType<
  AuthTransferOwnershipBody,
  AuthTransferOwnershipBody
> = exactSchema<AuthTransferOwnershipBody>()(z.object({ memberId: z.string().max(100) }));
