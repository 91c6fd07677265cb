/**
 * The answer of `GET /me`.
 *
 * @module
 */

import { z } from "zod";
import { telegramAccountResponse } from "../telegram/telegram_inputs.ts";
import { exactSchema } from "../http/exact_schema.ts";
import type { ResponseSchema } from "../http/responses.ts";
import { invitationEntryResponse, organizationEntryResponse } from "../organizations/responses.ts";
import type { AuthMe } from "./mod.ts";

/** The answer of `GET /me`; without the organizations feature its lists are empty. */
export const meResponse: ResponseSchema<AuthMe> = exactSchema<AuthMe>()(z.object({
  user: z.object({
    id: z.string(),
    email: z.string(),
    role: z.string(),
    emailVerified: z.boolean(),
    telegram: telegramAccountResponse.nullable(),
    twoFactorEnabled: z.boolean().describe(
      "Whether the account has a second factor (an enabled TOTP or a passkey)",
    ),
  }),
  organizations: z.array(organizationEntryResponse),
  organizationsHasMore: z.boolean(),
  activeOrganization: organizationEntryResponse.nullable(),
  invitations: z.array(invitationEntryResponse),
  invitationsHasMore: z.boolean(),
}));
