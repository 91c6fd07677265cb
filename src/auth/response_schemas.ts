/**
 * The zod schemas of the credential routes' answers (`/sign-up`, `/sign-in`, `/session`, `/me`,
 * `/verify-email`): they document the routes in `GET /openapi.json` and type clients.
 *
 * @module
 */

import { z } from "zod";
import type { AuthUser } from "./users.ts";
import {
  invitationEntrySchema,
  organizationEntrySchema,
} from "./organizations/resource_schemas.ts";

/** A user as the API shows it ({@link AuthUser}). */
export const authUserSchema: z.ZodType<AuthUser> = z.object({
  id: z.string(),
  email: z.string(),
  role: z.string(),
  emailVerified: z.boolean(),
});

const expiresAt = z.string().describe("When the session expires (ISO 8601 UTC)");

/** `POST /sign-up` and `/sign-in`: the token (also set as the `service_auth` cookie). */
export const credentialResponseSchema: z.ZodType<
  { token: string; user: AuthUser; expiresAt: string }
> = z.object({ token: z.string(), user: authUserSchema, expiresAt });

/** `GET /session`. */
export const sessionResponseSchema: z.ZodType<{ user: AuthUser; expiresAt: string }> = z.object({
  user: authUserSchema,
  expiresAt,
});

/** `POST /verify-email`: the verified user. */
export const verifyEmailResponseSchema: z.ZodType<{ user: AuthUser }> = z.object({
  user: authUserSchema,
});

/** `GET /me` (`MePayload`); without the organizations feature its lists are empty. */
export const meResponseSchema: z.ZodType<{
  user: AuthUser;
  organizations: z.infer<typeof organizationEntrySchema>[];
  organizationsHasMore: boolean;
  activeOrganization: z.infer<typeof organizationEntrySchema> | null;
  invitations: z.infer<typeof invitationEntrySchema>[];
  invitationsHasMore: boolean;
}> = z.object({
  user: authUserSchema,
  organizations: z.array(organizationEntrySchema),
  organizationsHasMore: z.boolean(),
  activeOrganization: organizationEntrySchema.nullable(),
  invitations: z.array(invitationEntrySchema),
  invitationsHasMore: z.boolean(),
});
