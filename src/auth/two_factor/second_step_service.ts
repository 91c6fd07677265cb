/**
 * The second step of a sign-in (`POST /sign-in/two-factor`): the challenge of the first step and
 * a code of the user's TOTP or one of their recovery codes. Within the sign-in rate limits (per
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
import type { AuthSignInTwoFactorBody, AuthTwoFactorCredential } from "./two_factor_inputs.ts";
import { findTotp, useRecoveryCode, useTotpStep } from "./two_factor_store.ts";

/** What the second step needs from its module instance. */
export interface SecondStepOptions {
  db: SqlAdapter;
  tables: AuthTableNames;
  limits: CredentialRateLimits;
  events: AccountEvents;
  secretBox: SecretBox;
  ttlSeconds: number;
}

/** How an answer would spend the factor, once the challenge is taken. */
type Proof =
  | { kind: "totp"; step: number }
  | { kind: "recoveryCode"; hash: string };

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

/** Builds `POST /sign-in/two-factor` of one module instance. */
export function secondStepAnswer(
  deps: SecondStepOptions,
): (input: AuthSignInTwoFactorBody, client: ClientInfo) => Promise<AuthTwoFactorCredential> {
  const { db, tables, limits, events, secretBox } = deps;

  /** What the answer proves, before any row changes; `null` when it proves nothing. */
  async function proofOf(
    userId: string,
    input: AuthSignInTwoFactorBody,
  ): Promise<Proof | null> {
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
  ): Promise<AuthTwoFactorCredential> {
    const attempt = await claimAttempt(db, tables, challenge.id);
    if (attempt === null) throw invalidChallenge();
    const proof = await proofOf(challenge.userId, input);
    const outcome = proof === null ? null : await db.transaction(async (tx) => {
      // Of two right answers at once, one takes the challenge; the other finds it gone.
      if (!await deleteChallenge(tx, tables, challenge.id)) return "gone" as const;
      let recoveryCodesLeft: number | null = null;
      if (proof.kind === "totp") {
        if (!await useTotpStep(tx, tables, challenge.userId, proof.step)) throw WRONG;
      } else {
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

  return (input, client) =>
    // Per client address first, before the lookup: each guess of a challenge costs a query.
    limits.attempt({
      action: "sign-in",
      ...client,
      email: null,
      countOnlyFailures: false,
      run: async () => {
        if (!looksLikeToken(input.challenge)) throw invalidChallenge();
        const challenge = await findChallenge(db, tables, hashToken(input.challenge));
        if (challenge === null) throw invalidChallenge();
        if (challenge.expired) {
          throw authError(
            "TWO_FACTOR_CHALLENGE_EXPIRED",
            "This sign-in waited more than 5 minutes for its code: sign in again",
          );
        }
        // Then per account, like a password: only wrong answers count against it.
        return await limits.attempt({
          action: "sign-in",
          request: null,
          remoteAddress: null,
          email: challenge.email,
          countOnlyFailures: true,
          run: () => answer(challenge, input),
        });
      },
    });
}
