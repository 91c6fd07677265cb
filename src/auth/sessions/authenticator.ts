/**
 * Resolving the credential of a request into a user and a session (the credential context).
 *
 * @module
 */

import type { SqlAdapter } from "../../sql/mod.ts";
import {
  type CredentialTransport,
  type PresentedCredential,
  presentedCredential,
} from "./presented_credential.ts";
import { unauthenticated } from "../errors.ts";
import type { AuthSession } from "./session.ts";
import { findSessions, renewSession, type SessionWithUser } from "./session_store.ts";
import { batchWhileBusy } from "../../sql/batch_while_busy.ts";
import { assertOutsideOwnTransaction } from "../../sql/transaction_guard.ts";
import type { AuthTableNames } from "../tables.ts";
import { hashToken, looksLikeToken } from "./tokens.ts";
import { touchSession } from "../account/session_list_store.ts";
import type { AuthUser } from "../account/user.ts";

/** Who is calling, with which credential: what every authenticated handler receives. */
export interface AuthContext {
  /** The signed-in user. */
  user: AuthUser;
  /** The credential's session, including its active organization. */
  session: AuthSession;
  /** Whether the credential came as the cookie or as a Bearer header. */
  transport: CredentialTransport;
  /** The presented token (needed to re-issue the cookie on renewal). */
  token: string;
  /** Set when this request renewed the session (sliding renewal): the new expiry. */
  renewedUntil: Date | null;
}

/** What the authenticator needs. */
export interface AuthenticatorOptions {
  db: SqlAdapter;
  tables: AuthTableNames;
  ttlSeconds: number;
  slidingRenewal: boolean;
}

/** Resolves requests to their {@link AuthContext}. */
export interface Authenticator {
  /** The context of the request, or `null` without a valid credential (400 on conflicting ones). */
  lookup(request: Request): Promise<AuthContext | null>;
  /** The context of the request; 401 `UNAUTHENTICATED` without a valid credential. */
  require(request: Request): Promise<AuthContext>;
  /**
   * The context of a token given on the server (as if sent as a Bearer header); 401
   * `UNAUTHENTICATED` when it is unknown, expired or signed out.
   */
  requireToken(token: string): Promise<AuthContext>;
}

/** Builds the {@link Authenticator} of one module instance. */
export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const { db, tables, ttlSeconds, slidingRenewal } = options;
  /**
   * The session of a token hash. The requests that arrive together share one statement
   * (`batchWhileBusy`: every lookup queued while the previous statement was in flight goes in
   * the next): under load a request costs a fraction of a round trip to find its credential.
   * Nothing is cached: each lookup runs in a statement that starts after it was asked for, so a
   * lookup asked after a revocation sees it.
   */
  const findGrouped = batchWhileBusy((hashes: string[]) => findSessions(db, tables, hashes));
  function findSession(tokenHash: string): Promise<SessionWithUser | null> {
    // Refused for this caller alone, as `db.query()` would: called from inside one of the
    // adapter's running transactions, the shared statement would fail every lookup of its group
    // (and on PGlite wait for that transaction forever).
    assertOutsideOwnTransaction(db, "A credential lookup");
    return findGrouped(tokenHash);
  }

  async function resolve(
    presented: PresentedCredential | null,
  ): Promise<AuthContext | "none" | "invalid"> {
    if (presented === null) return "none";
    if (!looksLikeToken(presented.token)) return "invalid";
    const found = await findSession(hashToken(presented.token));
    if (!found) return "invalid";
    // `lastUsedAt` of GET /sessions: one write a minute per session at most.
    if (found.lastUsedAt === null || Date.now() - found.lastUsedAt.getTime() >= 60_000) {
      await touchSession(db, tables, found.session.id);
    }
    let renewedUntil: Date | null = null;
    // The clock check avoids a write on most requests; the UPDATE re-checks on the database clock.
    const remainingMs = found.session.expiresAt.getTime() - Date.now();
    if (slidingRenewal && remainingMs < ttlSeconds * 500) {
      renewedUntil = await renewSession(db, tables, found.session.id, ttlSeconds);
      if (renewedUntil) found.session.expiresAt = renewedUntil;
    }
    return {
      user: found.user,
      session: found.session,
      transport: presented.transport,
      token: presented.token,
      renewedUntil,
    };
  }

  function required(result: AuthContext | "none" | "invalid"): AuthContext {
    if (result === "none") throw unauthenticated("Authentication required", false);
    if (result === "invalid") {
      throw unauthenticated("The credential is unknown, expired or signed out", true);
    }
    return result;
  }

  return {
    async lookup(request) {
      const result = await resolve(presentedCredential(request));
      return typeof result === "string" ? null : result;
    },
    async require(request) {
      return required(await resolve(presentedCredential(request)));
    },
    async requireToken(token) {
      return required(await resolve({ token, transport: "bearer" }));
    },
  };
}
