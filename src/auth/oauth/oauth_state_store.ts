/**
 * The SQL of the flows in progress: one row per authorization request, found by the SHA-256 of
 * its `state` and deleted by the callback that uses it (single use), ten minutes at most. The row
 * keeps the SHA-256 of the PKCE verifier that the browser's cookie holds (the flow is bound to
 * that browser), never the verifier itself.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";

/** What an authorization request keeps until its callback. */
export interface OAuthStateRow {
  provider: string;
  /** SHA-256 (hex) of the PKCE verifier held by the browser's cookie. */
  verifierHash: string;
  /** The OpenID Connect nonce sent, `null` for a plain OAuth 2 provider. */
  nonce: string | null;
  /** The exact `redirect_uri` sent (the code exchange repeats it). */
  redirectUri: string;
  /** Where the browser goes afterwards (checked when the flow started). */
  redirectTo: string;
  /** `sign-in`, or `link` (connecting the provider to `userId`'s account). */
  purpose: "sign-in" | "link";
  userId: string | null;
  /** The session that started a link: only it may complete it. */
  sessionId: string | null;
}

/** Stores a new flow for `ttlSeconds`, and deletes the expired ones. */
export async function insertOAuthState(
  db: SqlQuerier,
  tables: AuthTableNames,
  stateHash: string,
  row: OAuthStateRow,
  ttlSeconds: number,
): Promise<void> {
  await db.query(`DELETE FROM ${tables.oauthStates} WHERE expires_at < now()`);
  await db.query(
    `INSERT INTO ${tables.oauthStates}
       (state_hash, verifier_hash, provider, nonce, redirect_uri, redirect_to, purpose, user_id,
        session_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + $10::float8 * interval '1 second')`,
    [
      stateHash,
      row.verifierHash,
      row.provider,
      row.nonce,
      row.redirectUri,
      row.redirectTo,
      row.purpose,
      row.userId,
      row.sessionId,
      ttlSeconds,
    ],
  );
}

/**
 * Deletes and answers the flow of `stateHash` at `provider` (single use: whatever the callback
 * then finds, the state is spent); `null` when unknown, used or expired.
 */
export async function takeOAuthState(
  db: SqlQuerier,
  tables: AuthTableNames,
  stateHash: string,
  provider: string,
): Promise<OAuthStateRow | null> {
  const [row] = await db.query<OAuthStateRow & { expired: boolean }>(
    `DELETE FROM ${tables.oauthStates} WHERE state_hash = $1 AND provider = $2
     RETURNING provider, verifier_hash AS "verifierHash", nonce, redirect_uri AS "redirectUri",
       redirect_to AS "redirectTo", purpose, user_id AS "userId", session_id AS "sessionId",
       expires_at <= now() AS expired`,
    [stateHash, provider],
  );
  if (!row || row.expired) return null;
  const { expired: _, ...state } = row;
  return state;
}
