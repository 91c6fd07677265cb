/**
 * Verifying a passkey's assertion (`navigator.credentials.get()`), for every ceremony that asks
 * for one: the passwordless sign-in, and the passkey answer to the second step of a sign-in. The
 * caller has consumed the challenge the response answers (`takeWebAuthnChallenge`); this checks
 * the rest with `@simplewebauthn/server` (signature, client data type and origin, relying party,
 * user presence and verification) and moves the signature counter forward.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import type { SqlQuerier } from "../../sql/mod.ts";
import { authError } from "../errors.ts";
import { secretsEqual } from "../sessions/tokens.ts";
import type { AuthTableNames } from "../tables.ts";
import type { AuthPasskeyAuthenticationResponse } from "./passkey_inputs.ts";
import { advanceCounter, findCredential } from "./passkey_store.ts";
import type { RelyingParty } from "./relying_party.ts";
import { webauthnLibrary } from "./webauthn_library.ts";

/** What an assertion is checked against. */
export interface AssertionCheck {
  /** The browser's response. */
  response: AuthPasskeyAuthenticationResponse;
  /** The challenge it answers, already consumed. */
  challenge: string;
  /** The relying party of the request. */
  relyingParty: RelyingParty;
  /** The account the passkey must belong to (a second step); `null`: any live account. */
  userId: string | null;
}

/** A verified assertion: the passkey and its account. */
export interface VerifiedAssertion {
  passkeyId: string;
  userId: string;
}

function invalidPasskey(reason: string) {
  return authError("INVALID_PASSKEY", `The passkey could not be verified: ${reason}`);
}

/** The user id a user handle carries (registration sets it to the id's UTF-8), or `null`. */
function userIdOf(userHandle: string): string | null {
  try {
    return Buffer.from(userHandle, "base64url").toString("utf8");
  } catch {
    return null;
  }
}

/**
 * Verifies an assertion and records the passkey's use, in `db` (the caller's transaction). Throws
 * 401 `INVALID_PASSKEY` (no such passkey of a live account, another account's, or a failed check)
 * or 401 `PASSKEY_CLONED` (the signature counter did not move forward).
 */
export async function verifyPasskeyAssertion(
  db: SqlQuerier,
  tables: AuthTableNames,
  check: AssertionCheck,
): Promise<VerifiedAssertion> {
  const { response, relyingParty } = check;
  const credential = await findCredential(db, tables, response.id);
  if (credential === null || (check.userId !== null && credential.userId !== check.userId)) {
    throw invalidPasskey("no account has this passkey");
  }
  const handle = response.response.userHandle;
  if (handle !== undefined && handle !== null && userIdOf(handle) !== credential.userId) {
    throw invalidPasskey("the user handle is not the passkey's account");
  }
  const library = await webauthnLibrary();
  let verification: Awaited<ReturnType<typeof library.verifyAuthenticationResponse>>;
  try {
    verification = await library.verifyAuthenticationResponse({
      response: {
        ...response,
        response: { ...response.response, userHandle: handle ?? undefined },
        authenticatorAttachment: undefined,
        clientExtensionResults: response.clientExtensionResults ?? {},
      },
      expectedChallenge: (challenge) => secretsEqual(challenge, check.challenge),
      expectedOrigin: relyingParty.origins,
      expectedRPID: relyingParty.id,
      // Counter 0 turns the library's counter check off: advanceCounter() below makes it, in one
      // conditional update, and tells a clone (PASSKEY_CLONED) from any other failure.
      credential: {
        id: credential.credentialId,
        publicKey: credential.publicKey,
        counter: 0,
        transports: credential.transports,
      },
      requireUserVerification: true,
    });
  } catch (error) {
    throw invalidPasskey(error instanceof Error ? error.message : "unreadable response");
  }
  if (!verification.verified) throw invalidPasskey("the signature does not match");
  const info = verification.authenticationInfo;
  const advanced = await advanceCounter(db, tables, {
    passkeyId: credential.id,
    counter: info.newCounter,
    backedUp: info.credentialBackedUp,
  });
  if (!advanced) {
    throw authError(
      "PASSKEY_CLONED",
      "The passkey's signature counter did not increase: this response comes from a copy of " +
        "the authenticator, or was replayed, and is refused",
    );
  }
  return { passkeyId: credential.id, userId: credential.userId };
}
