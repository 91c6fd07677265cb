/**
 * Input schemas of the organizations routes.
 *
 * @module
 */

import { z } from "zod";
import type { PageRequest } from "../../pagination/mod.ts";
import type { JsonValue } from "../../schema/mod.ts";
import { normalizeSlug, slugProblem } from "./slug.ts";
import { checkStorable, storageProblem } from "../account/well_formed.ts";

/**
 * `pageSize` and `cursor` of list routes, as the URL carries them (strings): the cursor helper
 * checks them (400 `INVALID_PAGE_SIZE`, `INVALID_CURSOR`). The document gives `pageSize` its real
 * type: an integer from 1 to 100 (`MAX_PAGE_SIZE`; larger values are clamped), 20 by default.
 */
export const pageQuery: z.ZodType<PageRequest, PageRequest> = z.object({
  pageSize: z.string().optional().meta({
    type: "integer",
    minimum: 1,
    maximum: 100,
    default: 20,
    description: "Items per page",
  }),
  cursor: z.string().optional().meta({ description: "The cursor of the previous page's answer" }),
});

/** The codes of a list's `pageSize` and `cursor` checks. */
export const PAGE_ERRORS = { 400: ["INVALID_PAGE_SIZE", "INVALID_CURSOR"] } as const;

/** An organization name: trimmed, 1–120 characters, storable. */
export const nameSchema: z.ZodType<string, string> = z.string().trim().min(1).max(120)
  .superRefine(checkStorable);

/** A requested slug, normalized then validated. */
export const slugSchema: z.ZodType<string, string> = z.string().max(200).transform(normalizeSlug)
  .superRefine((slug, context) => {
    const problem = slugProblem(slug);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });

/**
 * A logo URL: http or https only (no `javascript:`, `data:` …), stored as the normalized `href` of
 * the parsed URL (lower-case scheme and host, no default port, dot segments resolved, spaces and
 * other unsafe characters percent-encoded), at most 2048 characters before and after.
 */
export const logoUrlSchema: z.ZodType<string, string> = z.string().max(2048).superRefine(
  checkStorable,
).transform((value, context) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    url = new URL("invalid:");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    context.addIssue({ code: "custom", message: "Must be an http or https URL" });
    return z.NEVER;
  }
  if (url.href.length > 2048) {
    context.addIssue({
      code: "custom",
      message: "Must be at most 2048 characters once normalized",
    });
    return z.NEVER;
  }
  return url.href;
});

/** Any JSON value whose text is at most `maxBytes` bytes, its strings and keys storable. */
export function metadataSchema(maxBytes: number): z.ZodType<JsonValue, JsonValue> {
  return z.unknown().superRefine((value, context) => {
    const unstorable = firstUnstorable(value);
    if (unstorable) {
      context.addIssue({ code: "custom", message: `${unstorable} (in a string or key)` });
      return;
    }
    const size = new TextEncoder().encode(JSON.stringify(value ?? null)).length;
    if (size > maxBytes) {
      context.addIssue({
        code: "custom",
        message: `Must be at most ${maxBytes} bytes of JSON, got ${size}`,
      });
    }
  }).describe(`Any JSON value, at most ${maxBytes} bytes as JSON text`) as z.ZodType<
    JsonValue,
    JsonValue
  >;
}

/** The storage problem of the first string or key of a JSON value that has one. */
function firstUnstorable(value: unknown): string | null {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      const problem = storageProblem(item);
      if (problem) return problem;
    } else if (Array.isArray(item)) {
      pending.push(...item);
    } else if (item !== null && typeof item === "object") {
      for (const [key, inner] of Object.entries(item)) pending.push(key, inner);
    }
  }
  return null;
}

/** A list of configured roles, duplicates removed, at least one. */
export function rolesSchema(roles: readonly string[]): z.ZodType<string[], string[]> {
  return z.array(z.enum(roles as [string, ...string[]])).min(1).max(64)
    .transform((list) => [...new Set(list)]) as unknown as z.ZodType<string[], string[]>;
}

/** The path parameters of routes under `/organizations/:organizationId`. */
export const organizationParams: z.ZodType<{ organizationId: string }, { organizationId: string }> =
  z.object({ organizationId: z.string() });

/** The path parameters of routes under `/organizations/:organizationId/members/:memberId`. */
export const memberParams: z.ZodType<
  { organizationId: string; memberId: string },
  { organizationId: string; memberId: string }
> = z.object({ organizationId: z.string(), memberId: z.string() });

/** The path parameters of `/organizations/invitations/:invitationId`. */
export const invitationParams: z.ZodType<{ invitationId: string }, { invitationId: string }> = z
  .object({ invitationId: z.string() });
