/**
 * A user's sessions: listing them (never their tokens) and revoking one or all the others.
 * Revocation deletes the session row, and every request resolves its credential against that
 * table, so a revoked credential fails its next request in every process (`GET /me` included).
 *
 * @module
 */

import { type Actor, requireSession } from "../actor.ts";
import { notFound } from "../errors.ts";
import type { ListedSession, RevokedSessions } from "./account_inputs.ts";
import { type LifecycleContext, nowIso } from "./lifecycle_context.ts";
import {
  listUserSessions,
  revokeUserSession,
  revokeUserSessionsExcept,
} from "./session_list_store.ts";

/** The session operations of one module instance. */
export interface SessionService {
  /** The actor's unexpired sessions, the most recently used first (at most 100). */
  list(actor: Actor): Promise<{ sessions: ListedSession[] }>;
  /** Revokes one of the actor's sessions; 404 for an unknown id or another user's. */
  revoke(actor: Actor, input: { sessionId: string }): Promise<void>;
  /** Revokes every session of the actor but the current one. */
  revokeOthers(actor: Actor): Promise<RevokedSessions>;
}

/** Builds the session operations. */
export function sessionService(context: LifecycleContext): SessionService {
  const { db, tables, events } = context;
  return {
    async list({ user, session }) {
      const rows = await listUserSessions(db, tables, user.id);
      return {
        sessions: rows.map((row) => ({
          id: row.id,
          createdAt: row.created_at.toISOString(),
          lastUsedAt: row.last_used_at?.toISOString() ?? null,
          expiresAt: row.expires_at.toISOString(),
          userAgent: row.user_agent,
          current: row.id === session?.id,
        })),
      };
    },
    async revoke({ user }, { sessionId }) {
      const revoked = await db.transaction(async (tx) => {
        if (!await revokeUserSession(tx, tables, user.id, sessionId)) return false;
        await events.emit(tx, "sessionRevoked", {
          user,
          sessionId,
          reason: "revoked",
          at: nowIso(),
        });
        return true;
      });
      if (!revoked) throw notFound("Session");
      events.wake();
    },
    async revokeOthers(actor) {
      const current = requireSession(actor, "revokeOtherSessions");
      const ids = await db.transaction(async (tx) => {
        const ids = await revokeUserSessionsExcept(tx, tables, actor.user.id, current.id);
        const at = nowIso();
        for (const sessionId of ids) {
          await events.emit(tx, "sessionRevoked", {
            user: actor.user,
            sessionId,
            reason: "revokeOthers",
            at,
          });
        }
        return ids;
      });
      events.wake();
      return { revokedSessions: ids.length };
    },
  };
}
