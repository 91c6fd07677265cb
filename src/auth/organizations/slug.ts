/**
 * Organization slugs: normalized (lower-case, accents stripped, other characters to dashes) and
 * validated (3–63 characters of `a-z`, `0-9` and `-`, no leading or trailing dash, not reserved).
 *
 * @module
 */

/**
 * Slugs that would read as a route or a keyword in a front end's URLs; the module refuses them
 * (400 `VALIDATION_ERROR`).
 *
 * @example Check a slug before sending it
 * ```ts
 * import { AUTH_RESERVED_SLUGS } from "@app/fragment-cli/auth";
 *
 * const slug = "settings";
 * if (AUTH_RESERVED_SLUGS.has(slug)) console.log(`"${slug}" is reserved`);
 * ```
 */
export const AUTH_RESERVED_SLUGS: ReadonlySet<string> = new Set([
  "active",
  "invitations",
  "members",
  "me",
  "new",
  "settings",
  "admin",
  "api",
  "auth",
]);

const SLUG = /^[a-z0-9](?:[a-z0-9-]{1,61})[a-z0-9]$/;

/** Normalizes a requested slug: NFKD without marks, lower-case, runs of other characters → `-`. */
export function normalizeSlug(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** Why a normalized slug is refused, or `null` when it is acceptable. */
export function slugProblem(slug: string): string | null {
  if (slug.length < 3 || slug.length > 63) {
    return "Slug must be 3–63 characters of a-z, 0-9 and - (after normalization)";
  }
  if (!SLUG.test(slug)) return "Slug must start and end with a letter or digit";
  if (AUTH_RESERVED_SLUGS.has(slug)) return `Slug "${slug}" is reserved`;
  return null;
}
