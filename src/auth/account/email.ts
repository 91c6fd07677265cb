/**
 * Email addresses: normalized one way everywhere (trimmed, lower-cased) before they are stored,
 * compared or looked up.
 *
 * @module
 */

import { z } from "zod";

/** The longest address accepted (RFC 5321's path limit). */
export const MAX_EMAIL_LENGTH = 254;

/** Trims and lower-cases an address; the only normalization the module applies. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** A zod schema that normalizes and validates an email address. */
export const emailSchema: z.ZodType<string, string> = z.string()
  .transform(normalizeEmail)
  .pipe(
    z.email({ message: "Must be a valid email address" }).max(
      MAX_EMAIL_LENGTH,
      `Must be at most ${MAX_EMAIL_LENGTH} characters`,
    ),
  );

/**
 * A zod schema for an address that is only looked up (sign-in, a reset or a verification mail
 * asked for): any string up to four times the longest address, normalized, answered like an
 * unknown address when it is not one, so the answer tells nothing about the format. Except a NUL
 * character, refused with 400: PostgreSQL's text cannot hold one (the lookup failed with 500), and
 * no stored address has one, so the refusal tells nothing either.
 */
export const lookupEmailSchema: z.ZodType<string, string> = z.string()
  .max(MAX_EMAIL_LENGTH * 4)
  .refine((email) => !email.includes("\u0000"), "Must not contain a NUL character")
  .transform(normalizeEmail);
