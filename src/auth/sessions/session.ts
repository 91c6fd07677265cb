/**
 * The credential a request presented: `AuthSession`.
 *
 * @module
 */

/**
 * The credential a request presented, as the module resolved it.
 *
 * @example
 * ```ts
 * import type { AuthSession } from "@app/fragment-cli/auth";
 *
 * const session: AuthSession = {
 *   id: crypto.randomUUID(),
 *   userId: crypto.randomUUID(),
 *   expiresAt: new Date(Date.now() + 86_400_000),
 *   activeOrganizationId: null,
 * };
 * ```
 */
export interface AuthSession {
  /** The session id (not the token). */
  id: string;
  /** The user the credential belongs to. */
  userId: string;
  /** When the credential stops working. */
  expiresAt: Date;
  /**
   * The organization this credential works in (per credential: another session of the same user
   * keeps its own), or `null`.
   */
  activeOrganizationId: string | null;
}
