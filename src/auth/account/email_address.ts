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
