/**
 * What a configured origin (`publicOrigin`) must look like.
 *
 * @module
 */

/**
 * Whether a value is exactly an origin: scheme, host and port only (`https://app.example.com`),
 * without a path, a trailing slash, a query or credentials.
 *
 * @param value The configured value.
 * @returns `true` for an origin.
 *
 * @example
 * ```ts
 * import { isOrigin } from "./origin.ts";
 *
 * isOrigin("https://app.example.com"); // true
 * isOrigin("https://app.example.com/"); // false
 * ```
 */
export function isOrigin(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}
