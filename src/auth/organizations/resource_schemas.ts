/**
 * The zod schemas of the organizations API's answers: they document the routes in
 * `GET /openapi.json` and type clients. They mirror the interfaces of `resources.ts`, which the
 * `satisfies` checks below keep in step.
 *
 * @module
 */

import { z } from "zod";
import type { JsonValue } from "../../db/mod.ts";
import type { Invitation, InvitationEntry, Member, Organization } from "./resources.ts";

const timestamp = z.string().describe("ISO 8601 UTC timestamp, e.g. 2026-11-21T15:05:58.123Z");

/** An organization ({@link Organization}). */
export const organizationSchema: z.ZodType<Organization> = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  logoUrl: z.string().nullable(),
  // Not z.json(): a recursive schema would need shared definitions in the document.
  metadata: z.unknown().describe("Any JSON value the organization was given, or null") as z.ZodType<
    JsonValue | null
  >,
  createdBy: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  deletedAt: timestamp.nullable(),
});

/** A membership ({@link Member}). */
export const memberSchema: z.ZodType<Member> = z.object({
  id: z.string(),
  organizationId: z.string(),
  userId: z.string(),
  roles: z.array(z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
});

/** An invitation ({@link Invitation}); `token` only in the inviter's creation answer. */
export const invitationSchema: z.ZodType<Invitation> = z.object({
  id: z.string(),
  organizationId: z.string(),
  email: z.string(),
  roles: z.array(z.string()),
  status: z.enum(["pending", "accepted", "rejected", "canceled", "expired"]),
  inviterId: z.string(),
  expiresAt: timestamp,
  createdAt: timestamp,
  respondedAt: timestamp.nullable(),
  token: z.string().optional(),
});

/** An organization with the caller's membership in it. */
export const organizationEntrySchema: z.ZodType<{ organization: Organization; member: Member }> = z
  .object({ organization: organizationSchema, member: memberSchema });

/** An invitation with the organization it invites to (the invitee's view). */
export const invitationEntrySchema: z.ZodType<InvitationEntry> = z.object({
  invitation: invitationSchema,
  organization: organizationSchema,
});

/** One page of a list: `items` under `key`, the next page's cursor (`null` on the last). */
export function pageSchema<Key extends string, Item>(
  key: Key,
  item: z.ZodType<Item>,
): z.ZodType<{ [K in Key]: Item[] } & { cursor: string | null; hasNextPage: boolean }> {
  return z.object({
    [key]: z.array(item),
    cursor: z.string().nullable(),
    hasNextPage: z.boolean(),
  }) as unknown as z.ZodType<
    { [K in Key]: Item[] } & { cursor: string | null; hasNextPage: boolean }
  >;
}

/** The codes of a list's `pageSize` and `cursor` checks. */
export const PAGE_ERRORS = { 400: ["INVALID_PAGE_SIZE", "INVALID_CURSOR"] } as const;
