/**
 * The second step of a sign-in (`POST /sign-in/two-factor`): the challenge of the first step and
 * a code of the user's TOTP, one of their recovery codes, or an assertion of one of their passkeys
 * (whose options `POST /sign-in/two-factor/passkey-options` hands out, bound to the challenge). Within the sign-in rate limits (per
 * client address before the challenge is looked up, per account after), each answer first spends
 * one of the challenge's 5 attempts (the last wrong one deletes it); a right one, in one
 * transaction, deletes the challenge, spends the code (a TOTP code once per time step, a recovery
 * code once) and starts the session the challenge was kept for.
 *
 * @module
 */

import type { SqlAdapter } from "../../sql/mod.ts";
import type { CredentialRateLimits } from "../abuse/credential_rate_limits.ts";
import type { AccountEvents } from "../account/account_events.ts";
import { type ClientInfo, credentialBody, startSession } from "../account/account_service.ts";
import { nowIso } from "../account/lifecycle_context.ts";
import { findUserById, publicUser } from "../account/user_store.ts";
import { authError } from "../errors.ts";
import { hashToken, looksLikeToken } from "../sessions/tokens.ts";
import type { AuthTableNames } from "../tables.ts";
import {
  CHALLENGE_MAX_ATTEMPTS,
  type ChallengeRow,
  claimAttempt,
  deleteChallenge,
  findChallenge,
} from "./challenge_store.ts";
import { normalizeRecoveryCode, recoveryCodeHash } from "./recovery_codes.ts";
import type { SecretBox } from "./secret_box.ts";
import { matchingStep } from "./totp.ts";
import type {
  AuthSignInTwoFactorBody,
  AuthTwoFactorCredential,
  AuthTwoFactorPasskeyOptionsBody,
} from "./two_factor_inputs.ts";
import type { OriginPolicy } from "../http/origin_check.ts";
import {
  issueWebAuthnChallenge,
  requireRelyingParty,
  takeWebAuthnChallenge,
  userCredentialDescriptors,
  verifyPasskeyAssertion,
  WEBAUTHN_CHALLENGE_TTL_SECONDS,
} from "../passkeys/mod.ts";
import type { AuthPasskeyRequestOptions } from "../passkeys/passkey_inputs.ts";
import { findTotp, useRecoveryCode, useTotpStep } from "./two_factor_store.ts";

/** What the second step needs from its module instance. */
export interface SecondStepOptions {
  db: SqlAdapter;
  tables: AuthTableNames;
  limits: CredentialRateLimits;
  events: AccountEvents;
  secretBox: SecretBox;
  ttlSeconds: number;
  /** Where the passkeys' relying party comes from (`publicOrigin`, `trustedOrigins`). */
  origins: OriginPolicy;
}

/** The second step of one module instance: its passkey options and its answer. */
export interface SecondStep {
  /** `POST /sign-in/two-factor/passkey-options`: request options for the challenge's user. */
  passkeyOptions(
    input: AuthTwoFactorPasskeyOptionsBody,
    client: ClientInfo,
  ): Promise<AuthPasskeyRequestOptions>;
  /** `POST /sign-in/two-factor`: the credential the challenge was kept for. */
  answer(input: AuthSignInTwoFactorBody, client: ClientInfo): Promise<AuthTwoFactorCredential>;
}

/** How an answer would spend the factor, once the challenge is taken. */
type Proof =
  | { kind: "totp"; step: number }
  | { kind: "recoveryCode"; hash: string }
  | { kind: "passkey" };

function invalidChallenge() {
  return authError(
    "INVALID_TWO_FACTOR_CHALLENGE",
    "This sign-in is unknown, was completed, or ran out of attempts: sign in again",
  );
}

function wrongCode(attemptsLeft: number) {
  return authError(
    "INVALID_TWO_FACTOR_CODE",
    attemptsLeft > 0
      ? `The code is wrong or was used already (${attemptsLeft} attempts left)`
      : "The code is wrong or was used already: sign in again",
  );
}

/** A wrong code found inside the transaction: rolls it back (the challenge stays). */
const WRONG = new Error("wrong code");

/** Builds the second step of one module instance. */
export function secondStep(deps: SecondStepOptions): SecondStep {
  const { db, tables, limits, events, secretBox } = deps;

  /**
   * What the answer proves, before any row changes; `null` when it proves nothing. A passkey's
   * assertion is checked here in full (its WebAuthn challenge, bound to this second-step challenge
   * and user, is consumed; the signature counter moves forward): a wrong one spends an attempt.
   */
  async function proofOf(
    challenge: ChallengeRow,
    input: AuthSignInTwoFactorBody,
    client: ClientInfo,
  ): Promise<Proof | null> {
    const userId = challenge.userId;
    if ("passkey" in input) {
      const relyingParty = requireRelyingParty(deps.origins, client.request);
      const webauthnChallenge = await takeWebAuthnChallenge(
        db,
        tables,
        input.passkey.response.clientDataJSON,
        { purpose: "two-factor", userId, twoFactorChallengeId: challenge.id },
      );
      await verifyPasskeyAssertion(db, tables, {
        response: input.passkey,
        challenge: webauthnChallenge,
        relyingParty,
        userId,
      });
      return { kind: "passkey" };
    }
    if ("recoveryCode" in input) {
      const code = normalizeRecoveryCode(input.recoveryCode);
      return code === null ? null : { kind: "recoveryCode", hash: recoveryCodeHash(code) };
    }
    const totp = await findTotp(db, tables, userId);
    if (totp === null || !totp.enabled) return null;
    const secret = await secretBox.open(totp.ciphertext, userId);
    const step = secret === null ? null : await matchingStep(secret, input.code);
    return step === null ? null : { kind: "totp", step };
  }

  /** Checks the answer to a found challenge; the credential. */
  async function answer(
    challenge: ChallengeRow,
    input: AuthSignInTwoFactorBody,
    client: ClientInfo,
  ): Promise<AuthTwoFactorCredential> {
    const attempt = await claimAttempt(db, tables, challenge.id);
    if (attempt === null) throw invalidChallenge();
    const proof = await proofOf(challenge, input, client).catch(async (error) => {
      // A refused passkey spends its attempt like a wrong code; the last one ends the challenge.
      if (CHALLENGE_MAX_ATTEMPTS - attempt <= 0) await deleteChallenge(db, tables, challenge.id);
      throw error;
    });
    const outcome = proof === null ? null : await db.transaction(async (tx) => {
      // Of two right answers at once, one takes the challenge; the other finds it gone.
      if (!await deleteChallenge(tx, tables, challenge.id)) return "gone" as const;
      let recoveryCodesLeft: number | null = null;
      if (proof.kind === "totp") {
        if (!await useTotpStep(tx, tables, challenge.userId, proof.step)) throw WRONG;
      } else if (proof.kind === "recoveryCode") {
        recoveryCodesLeft = await useRecoveryCode(tx, tables, challenge.userId, proof.hash);
        if (recoveryCodesLeft === null) throw WRONG;
      }
      const record = await findUserById(tx, tables, challenge.userId);
      if (record === null) return "gone" as const;
      const user = publicUser(record);
      const issued = await startSession(tx, tables, {
        user,
        ttlSeconds: deps.ttlSeconds,
        activeOrganizationId: challenge.activeOrganizationId,
        userAgent: challenge.userAgent,
      });
      if (recoveryCodesLeft !== null) {
        await events.emit(tx, "recoveryCodeUsed", { user, recoveryCodesLeft, at: nowIso() });
      }
      return { issued, emitted: recoveryCodesLeft !== null };
    }).catch((error) => {
      if (error === WRONG) return null;
      throw error;
    });
    if (outcome === "gone") throw invalidChallenge();
    if (outcome === null) {
      const left = CHALLENGE_MAX_ATTEMPTS - attempt;
      if (left <= 0) await deleteChallenge(db, tables, challenge.id);
      throw wrongCode(left);
    }
    if (outcome.emitted) events.wake();
    return { ...credentialBody(outcome.issued), redirectTo: challenge.redirectTo };
  }

  /** The challenge of a second step, live; within the per-address sign-in limit. */
  async function liveChallenge(token: string): Promise<ChallengeRow> {
    if (!looksLikeToken(token)) throw invalidChallenge();
    const challenge = await findChallenge(db, tables, hashToken(token));
    if (challenge === null) throw invalidChallenge();
    if (challenge.expired) {
      throw authError(
        "TWO_FACTOR_CHALLENGE_EXPIRED",
        "This sign-in waited more than 5 minutes for its code: sign in again",
      );
    }
    return challenge;
  }

  return {
    passkeyOptions: (input, client) =>
      limits.attempt({
        action: "sign-in",
        ...client,
        email: null,
        countOnlyFailures: false,
        run: async () => {
          const relyingParty = requireRelyingParty(deps.origins, client.request);
          const challenge = await liveChallenge(input.challenge);
          const allowCredentials = await userCredentialDescriptors(db, tables, challenge.userId);
          if (allowCredentials.length === 0) {
            throw authError("INVALID_PASSKEY", "This account has no passkey: use a code");
          }
          const issued = await issueWebAuthnChallenge(db, tables, {
            purpose: "two-factor",
            userId: challenge.userId,
            twoFactorChallengeId: challenge.id,
          });
          return {
            challenge: issued.challenge,
            rpId: relyingParty.id,
            timeout: WEBAUTHN_CHALLENGE_TTL_SECONDS * 1000,
            userVerification: "required",
            allowCredentials,
          };
        },
      }),

    answer: (input, client) =>
      // Per client address first, before the lookup: each guess of a challenge costs a query.
      limits.attempt({
        action: "sign-in",
        ...client,
        email: null,
        countOnlyFailures: false,
        run: async () => {
          const challenge = await liveChallenge(input.challenge);
          // Then per account, like a password: only wrong answers count against it.
          return await limits.attempt({
            action: "sign-in",
            request: null,
            remoteAddress: null,
            email: challenge.email,
            countOnlyFailures: true,
            run: () => answer(challenge, input, client),
          });
        },
      }),
  };
}
