/**
 * The challenges of the WebAuthn ceremonies: 32 random bytes handed to the browser (base64url in
 * the options), their SHA-256 stored for 5 minutes, bound to the ceremony and (a registration) the
 * user. A response names its challenge in its client data; {@link takeWebAuthnChallenge} reads it
 * there and consumes the stored one, so a challenge answers one response at most.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { randomBytes } from "node:crypto";
import type { SqlQuerier } from "../../sql/mod.ts";
import { authError } from "../errors.ts";
import { hashToken, looksLikeToken, TOKEN_BYTES } from "../sessions/tokens.ts";
import type { AuthTableNames } from "../tables.ts";
import {
  type ChallengeBinding,
  consumeWebAuthnChallenge,
  insertWebAuthnChallenge,
} from "./webauthn_challenge_store.ts";

/** How long a challenge may be answered: 5 minutes (the options' `timeout` too). */
export const WEBAUTHN_CHALLENGE_TTL_SECONDS = 5 * 60;

/** A challenge handed out: its bytes (for the library) and their base64url (the options'). */
export interface IssuedChallenge {
  bytes: Uint8Array<ArrayBuffer>;
  /** base64url of `bytes`: what the options carry and the client data names. */
  challenge: string;
}

/** Draws a challenge and stores its hash for `binding`. */
export async function issueWebAuthnChallenge(
  db: SqlQuerier,
  tables: AuthTableNames,
  binding: ChallengeBinding,
): Promise<IssuedChallenge> {
  const bytes = new Uint8Array(randomBytes(TOKEN_BYTES));
  const challenge = Buffer.from(bytes).toString("base64url");
  await insertWebAuthnChallenge(db, tables, {
    ...binding,
    challengeHash: hashToken(challenge),
    ttlSeconds: WEBAUTHN_CHALLENGE_TTL_SECONDS,
  });
  return { bytes, challenge };
}

/** The challenge a response's client data names; 400 `INVALID_PASSKEY_RESPONSE` if unreadable. */
export function challengeOf(clientDataJSON: string): string {
  let challenge: unknown;
  try {
    const text = Buffer.from(clientDataJSON, "base64url").toString("utf8");
    challenge = (JSON.parse(text) as { challenge?: unknown } | null)?.challenge;
  } catch {
    challenge = undefined;
  }
  if (typeof challenge !== "string") {
    throw authError(
      "INVALID_PASSKEY_RESPONSE",
      "The passkey response's clientDataJSON is not base64url JSON with a challenge",
    );
  }
  return challenge;
}

/**
 * Consumes the challenge a response answers (named in its `clientDataJSON`) for `binding`, and
 * returns it. 400 `INVALID_PASSKEY_CHALLENGE` when it was not issued for this ceremony (or user)
 * or was used; 410 `PASSKEY_CHALLENGE_EXPIRED` when it was, but more than 5 minutes ago. Either
 * way it cannot be used again.
 */
export async function takeWebAuthnChallenge(
  db: SqlQuerier,
  tables: AuthTableNames,
  clientDataJSON: string,
  binding: ChallengeBinding,
): Promise<string> {
  const challenge = challengeOf(clientDataJSON);
  const consumed = looksLikeToken(challenge)
    ? await consumeWebAuthnChallenge(db, tables, hashToken(challenge), binding)
    : null;
  if (consumed === null) {
    throw authError(
      "INVALID_PASSKEY_CHALLENGE",
      "The passkey response answers no challenge issued for this ceremony, or one already used: " +
        "ask for new options",
    );
  }
  if (!consumed.live) {
    throw authError(
      "PASSKEY_CHALLENGE_EXPIRED",
      "The passkey challenge expired (5 minutes): ask for new options",
    );
  }
  return challenge;
}
