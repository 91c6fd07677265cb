/**
 * Input schemas of the organizations routes.
 *
 * @module
 */

import { z } from "zod";
import type { JsonValue } from "../../db/mod.ts";
import { normalizeSlug, slugProblem } from "./slug.ts";

/** `pageSize` and `cursor` of list routes (checked by the cursor helper: 400 when invalid). */
export const pageQuery: z.ZodType<{ pageSize?: string; cursor?: string }> = z.object({
  pageSize: z.string().optional(),
  cursor: z.string().optional(),
});

/** An organization name: trimmed, 1–120 characters. */
export const nameSchema: z.ZodType<string, string> = z.string().trim().min(1).max(120);

/** A requested slug, normalized then validated. */
export const slugSchema: z.ZodType<string, string> = z.string().max(200).transform(normalizeSlug)
  .superRefine((slug, context) => {
    const problem = slugProblem(slug);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });

/** A logo URL: http or https only (no `javascript:`, `data:` …), at most 2048 characters. */
export const logoUrlSchema: z.ZodType<string, string> = z.string().max(2048).refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}, "Must be an http or https URL");

/** Any JSON value whose text is at most `maxBytes` bytes. */
export function metadataSchema(maxBytes: number): z.ZodType<JsonValue, unknown> {
  return z.unknown().superRefine((value, context) => {
    const size = new TextEncoder().encode(JSON.stringify(value ?? null)).length;
    if (size > maxBytes) {
      context.addIssue({
        code: "custom",
        message: `Must be at most ${maxBytes} bytes of JSON, got ${size}`,
      });
    }
  }) as z.ZodType<JsonValue, unknown>;
}

/** A list of configured roles, duplicates removed, at least one. */
export function rolesSchema(roles: readonly string[]): z.ZodType<string[], unknown> {
  return z.array(z.enum(roles as [string, ...string[]])).min(1).max(64)
    .transform((list) => [...new Set(list)]) as unknown as z.ZodType<string[], unknown>;
}
