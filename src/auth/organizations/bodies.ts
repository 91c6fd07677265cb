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
import { emailSchema } from "../email.ts";
import { exactSchema } from "../exact_schema.ts";
import { logoUrlSchema, metadataSchema, nameSchema, rolesSchema, slugSchema } from "./input.ts";

/** The body of `POST /organizations`. */
export interface CreateOrganizationBody {
  name: string;
  slug?: string | undefined;
  logoUrl?: string | null | undefined;
  metadata?: JsonValue | undefined;
}

/** The body of `PATCH /organizations/:organizationId`: at least one field. */
export interface UpdateOrganizationBody {
  name?: string | undefined;
  slug?: string | undefined;
  logoUrl?: string | null | undefined;
  metadata?: JsonValue | undefined;
}

/** The body of `POST /organizations/active` (`null` clears it). */
export interface SetActiveOrganizationBody {
  organizationId: string | null;
}

/** The body of `POST /organizations/:organizationId/members`. */
export interface AddMemberBody {
  userId: string;
  roles?: string[] | undefined;
}

/** The body of `PATCH /organizations/:organizationId/members/:memberId`. */
export interface UpdateMemberRolesBody {
  roles: string[];
}

/** The body of `POST /organizations/:organizationId/invitations`. */
export interface CreateInvitationBody {
  email: string;
  roles?: string[] | undefined;
}

/** The body of `PATCH /organizations/invitations/:invitationId`. */
export interface RespondToInvitationBody {
  action: "accept" | "reject" | "cancel";
  token: string;
}

/** The organization bodies; `maxMetadataBytes` bounds `metadata`. */
export function organizationBodies(maxMetadataBytes: number): {
  create: z.ZodType<CreateOrganizationBody, CreateOrganizationBody>;
  update: z.ZodType<UpdateOrganizationBody, UpdateOrganizationBody>;
} {
  const metadata = metadataSchema(maxMetadataBytes);
  return {
    create: exactSchema<CreateOrganizationBody>()(z.object({
      name: nameSchema,
      slug: slugSchema.optional(),
      logoUrl: logoUrlSchema.nullable().optional(),
      metadata: metadata.optional(),
    })),
    update: exactSchema<UpdateOrganizationBody>()(
      z.object({
        name: nameSchema.optional(),
        slug: slugSchema.optional(),
        logoUrl: logoUrlSchema.nullable().optional(),
        metadata: metadata.optional(),
      }).refine(
        (body) => Object.values(body).some((value) => value !== undefined),
        "Give at least one of name, slug, logoUrl, metadata",
      ),
    ),
  };
}

/** The body of `POST /organizations/active`. */
export const setActiveOrganizationBody: z.ZodType<
  SetActiveOrganizationBody,
  SetActiveOrganizationBody
> = exactSchema<SetActiveOrganizationBody>()(
  z.object({ organizationId: z.string().nullable() }),
);

/** The member bodies; `roles` are the configured ones. */
export function memberBodies(roles: readonly string[]): {
  add: z.ZodType<AddMemberBody, AddMemberBody>;
  updateRoles: z.ZodType<UpdateMemberRolesBody, UpdateMemberRolesBody>;
} {
  const roleList = rolesSchema(roles);
  return {
    add: exactSchema<AddMemberBody>()(z.object({ userId: z.string(), roles: roleList.optional() })),
    updateRoles: exactSchema<UpdateMemberRolesBody>()(z.object({ roles: roleList })),
  };
}

/** The invitation bodies; `roles` are the configured ones. */
export function invitationBodies(roles: readonly string[]): {
  create: z.ZodType<CreateInvitationBody, CreateInvitationBody>;
} {
  return {
    create: exactSchema<CreateInvitationBody>()(
      z.object({ email: emailSchema, roles: rolesSchema(roles).optional() }),
    ),
  };
}

/** The body of `PATCH /organizations/invitations/:invitationId`. */
export const respondToInvitationBody: z.ZodType<
  RespondToInvitationBody,
  RespondToInvitationBody
> = exactSchema<RespondToInvitationBody>()(z.object({
  action: z.enum(["accept", "reject", "cancel"]),
  token: z.string().min(1).max(256),
}));
