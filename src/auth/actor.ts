/**
 * Who performs an operation of the auth service: the signed-in user, with the credential they
 * used when there is one. Routes build it from the request's credential; `authModule.api` from
 * the actor its caller names ({@link AuthActor}).
 *
 * @module
 */

import type { AuthSession } from "./sessions/session.ts";
import type { AuthUser } from "./account/user.ts";

/**
 * The actor of a service operation, resolved: the user, and the session of their credential or
 * `null` when the server acts for a user without one (then nothing per credential changes: no
 * active organization is set).
 */
export interface Actor {
  user: AuthUser;
  session: AuthSession | null;
}

/**
 * Whom a server-side call acts for:
 * - `{ userId }`: the user, without a credential (operations on the credential itself, such as
 *   `signOut` or the active organization, refuse it with a `TypeError`);
 * - `{ token }`: a credential token, checked like a Bearer header (401 `UNAUTHENTICATED` when
 *   unknown, expired or signed out);
 * - `{ user, session }`: what `api.getRequestAuth(request)` returned for a request.
 *
 * @example
 * ```ts
 * import type { AuthActor } from "@app/fragment-cli/auth";
 *
 * const admin: AuthActor = { userId: "5f0f3a9e-1b7c-4d5e-8f6a-7b8c9d0e1f2a" };
 * ```
 */
export type AuthActor =
  | { userId: string }
  | { token: string }
  | { user: AuthUser; session: AuthSession };

/** The session of an actor for an operation on the credential itself; `TypeError` without one. */
export function requireSession(actor: Actor, operation: string): AuthSession {
  if (actor.session === null) {
    throw new TypeError(
      `${operation}() acts on a credential: give the actor as { token } or the context of ` +
        "api.getRequestAuth(), not { userId }",
    );
  }
  return actor.session;
}
