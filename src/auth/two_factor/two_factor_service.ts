/**
 * The caller's second factors: their status, setting up TOTP (a new secret, sealed at rest, not
 * active until a code confirms it), confirming it (which shows the recovery codes once), new
 * recovery codes, and removing TOTP with its codes. What changes a factor needs the account's
 * password (checked within the sign-in rate limits) or, to confirm a setup, a code of its secret;
 * it refreshes the user's `two_factor_enabled` flag in its transaction and records the event.
 * The second step of a sign-in is `second_step_service.ts`.
 *
 * @module
 */

import type { SqlAdapter } from "../../sql/mod.ts";
import type { CredentialRateLimits } from "../abuse/credential_rate_limits.ts";
import type { AccountEvents } from "../account/account_events.ts";
import type { ClientInfo } from "../account/account_service.ts";
import { lockUser } from "../account/account_store.ts";
import { checkPassword, nowIso } from "../account/lifecycle_context.ts";
import type { Actor } from "../actor.ts";
import { authError } from "../errors.ts";
import type { PasswordHasher } from "../sessions/password_hasher.ts";
import type { AuthTableNames } from "../tables.ts";
import { refreshSecondFactorFlag } from "./factor_flag.ts";
import { newRecoveryCodes } from "./recovery_codes.ts";
import type { SecretBox } from "./secret_box.ts";
import { matchingStep, newTotpSecret, totpUrl } from "./totp.ts";
import type {
  AuthEnableTotpBody,
  AuthRecoveryCodes,
  AuthSignInTwoFactorBody,
  AuthTotpSetup,
  AuthTwoFactorCredential,
  AuthTwoFactorPasskeyOptionsBody,
  AuthTwoFactorPasswordBody,
  AuthTwoFactorStatus,
} from "./two_factor_inputs.ts";
import type { OriginPolicy } from "../http/origin_check.ts";
import type { AuthPasskeyRequestOptions } from "../passkeys/passkey_inputs.ts";
import type { OrganizationEventSink } from "../account/lifecycle_context.ts";
import { recordSecondFactorLoss } from "../organizations/second_factor.ts";
import {
  confirmTotp,
  deleteTotpAndRecoveryCodes,
  factorStatus,
  findTotp,
  replaceRecoveryCodes,
  storePendingTotp,
} from "./two_factor_store.ts";
import { secondStep } from "./second_step_service.ts";

/** The second-factor operations of one module instance. */
export interface TwoFactorService {
  /** `GET /two-factor`: the caller's factors. */
  status(actor: Actor): Promise<AuthTwoFactorStatus>;
  /** `POST /two-factor/totp/setup`: a new secret, waiting for its first code. */
  setupTotp(
    actor: Actor,
    input: AuthTwoFactorPasswordBody,
    client: ClientInfo,
  ): Promise<AuthTotpSetup>;
  /** `POST /two-factor/totp/enable`: confirms the setup with a code; the recovery codes. */
  enableTotp(
    actor: Actor,
    input: AuthEnableTotpBody,
    client: ClientInfo,
  ): Promise<AuthRecoveryCodes>;
  /** `POST /two-factor/recovery-codes`: a new set; the older codes are void. */
  regenerateRecoveryCodes(
    actor: Actor,
    input: AuthTwoFactorPasswordBody,
    client: ClientInfo,
  ): Promise<AuthRecoveryCodes>;
  /** `POST /two-factor/disable`: removes TOTP and the recovery codes (passkeys stay). */
  disable(
    actor: Actor,
    input: AuthTwoFactorPasswordBody,
    client: ClientInfo,
  ): Promise<AuthTwoFactorStatus>;
  /** `POST /sign-in/two-factor`: answers a sign-in's challenge; the credential. */
  signIn(input: AuthSignInTwoFactorBody, client: ClientInfo): Promise<AuthTwoFactorCredential>;
  /** `POST /sign-in/two-factor/passkey-options`: request options for the challenge's user. */
  passkeyOptions(
    input: AuthTwoFactorPasskeyOptionsBody,
    client: ClientInfo,
  ): Promise<AuthPasskeyRequestOptions>;
}

/** What {@link twoFactorService} needs. */
export interface TwoFactorServiceOptions {
  db: SqlAdapter;
  tables: AuthTableNames;
  hasher: PasswordHasher;
  limits: CredentialRateLimits;
  events: AccountEvents;
  /** Seals the TOTP secrets (purpose `auth:totp:secret`, bound to the user's id). */
  secretBox: SecretBox;
  /** Whether the deployment configured its `secret` (else the box's key dies with the process). */
  secretConfigured: boolean;
  /** The issuer the authenticator app shows (`twoFactor.issuer`). */
  issuer: string;
  /** The credential lifetime, in seconds (the second step issues it). */
  ttlSeconds: number;
  /** Where the passkeys' relying party comes from (a passkey answering the second step). */
  origins: OriginPolicy;
  /**
   * The organization events (`null` without organizations): removing the last factor records
   * `memberSecondFactorLost` in each organization of the user's that requires one.
   */
  organizationEvents: OrganizationEventSink | null;
}

let warnedUnsealable = false;

function alreadyEnabled() {
  return authError(
    "TOTP_ALREADY_ENABLED",
    "TOTP is enabled already: disable it first to set up another authenticator",
  );
}

/** Builds the second-factor operations of one module instance. */
export function twoFactorService(deps: TwoFactorServiceOptions): TwoFactorService {
  const { db, tables, events, secretBox } = deps;
  const step = secondStep(deps);

  return {
    status({ user }) {
      return factorStatus(db, tables, user.id);
    },
    async setupTotp(actor, { password }, client) {
      await checkPassword(deps, actor, password, client);
      const userId = actor.user.id;
      if ((await findTotp(db, tables, userId))?.enabled) throw alreadyEnabled();
      if (!deps.secretConfigured && !warnedUnsealable) {
        warnedUnsealable = true;
        console.warn(
          "[auth] a TOTP secret is sealed with this process's random key (no `secret` option nor " +
            "FRAGMENT_SECRET): it cannot be opened after a restart, and its user must sign in " +
            "with a recovery code. Set FRAGMENT_SECRET in production.",
        );
      }
      const secret = await newTotpSecret();
      const sealed = await secretBox.seal(secret, userId);
      if (!await storePendingTotp(db, tables, userId, sealed)) throw alreadyEnabled();
      return { secret, otpauthUrl: await totpUrl(secret, deps.issuer, actor.user.email) };
    },
    // Limited like a sign-in (per address and per account): each guess is a code of the secret.
    enableTotp(actor, { code }, client) {
      const userId = actor.user.id;
      return deps.limits.attempt({
        action: "two-factor-enable",
        ...client,
        email: actor.user.email,
        countOnlyFailures: true,
        run: async () => {
          const pending = await findTotp(db, tables, userId);
          if (pending?.enabled) throw alreadyEnabled();
          const secret = pending === null ? null : await secretBox.open(pending.ciphertext, userId);
          if (pending === null || secret === null) {
            throw authError(
              "TOTP_NOT_SET_UP",
              "No TOTP setup waits for its first code: start with POST /two-factor/totp/setup",
            );
          }
          const step = await matchingStep(secret, code);
          if (step === null) {
            throw authError("INVALID_TWO_FACTOR_CODE", "The code is wrong: try the current one");
          }
          const { codes, hashes } = newRecoveryCodes();
          await db.transaction(async (tx) => {
            await lockUser(tx, tables, userId);
            // The code's step counts as used: the same code cannot also answer a sign-in.
            if (!await confirmTotp(tx, tables, userId, pending.ciphertext, step)) {
              throw authError(
                "TOTP_NOT_SET_UP",
                "The setup was replaced or completed meanwhile: use the latest one",
              );
            }
            await replaceRecoveryCodes(tx, tables, userId, hashes);
            await refreshSecondFactorFlag(tx, tables, userId);
            await events.emit(tx, "twoFactorEnabled", { user: actor.user, at: nowIso() });
          });
          events.wake();
          return { recoveryCodes: codes };
        },
      });
    },
    async regenerateRecoveryCodes(actor, { password }, client) {
      await checkPassword(deps, actor, password, client);
      const userId = actor.user.id;
      const { codes, hashes } = newRecoveryCodes();
      await db.transaction(async (tx) => {
        await lockUser(tx, tables, userId);
        if (!(await factorStatus(tx, tables, userId)).enabled) {
          throw authError(
            "TWO_FACTOR_NOT_ENABLED",
            "The account has no second factor: recovery codes come with TOTP",
          );
        }
        await replaceRecoveryCodes(tx, tables, userId, hashes);
      });
      return { recoveryCodes: codes };
    },
    async disable(actor, { password }, client) {
      await checkPassword(deps, actor, password, client);
      const userId = actor.user.id;
      const status = await db.transaction(async (tx) => {
        await lockUser(tx, tables, userId);
        const removed = await deleteTotpAndRecoveryCodes(tx, tables, userId);
        const remaining = await refreshSecondFactorFlag(tx, tables, userId);
        if (removed && !remaining) {
          await recordSecondFactorLoss(tx, tables, deps.organizationEvents, userId);
        }
        if (removed) {
          await events.emit(tx, "twoFactorDisabled", {
            user: actor.user,
            twoFactorEnabled: remaining,
            reason: "disabled",
            at: nowIso(),
          });
        }
        return await factorStatus(tx, tables, userId);
      });
      events.wake();
      deps.organizationEvents?.wake();
      return status;
    },
    signIn: step.answer,
    passkeyOptions: step.passkeyOptions,
  };
}
