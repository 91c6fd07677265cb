/**
 * The user as the module shows it: `AuthUser`.
 *
 * @module
 */

/**
 * A user as every response shows it.
 *
 * @example
 * ```ts
 * import type { AuthUser } from "@app/fragment-cli/auth";
 *
 * const user: AuthUser = {
 *   id: crypto.randomUUID(),
 *   email: "ada@example.com",
 *   role: "user",
 *   emailVerified: false,
 * };
 * ```
 */
export interface AuthUser {
  /** The user id (a UUID). */
  id: string;
  /** The normalized (trimmed, lower-case) email address. */
  email: string;
  /** The global role: `user` (default) or `admin`, set only through the server-side API. */
  role: string;
  /**
   * Whether the user proved they read mail at `email` (`POST /verify-email`, or created verified
   * through `api.createUser`). Invitations are matched only to verified addresses.
   */
  emailVerified: boolean;
}
