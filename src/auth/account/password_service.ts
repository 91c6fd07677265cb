/**
 * Forgotten and changed passwords. `forgot` answers the same whether or not the address has an
 * account, after the same work (one read): the token is stored and mailed after the answer; `reset` consumes a single-use token, sets the password, verifies the address the token was
 * mailed to and revokes every session; `change` checks the current password within the sign-in
 * rate limits and, by default, revokes the other sessions.
 *
 * @module
 */

import type { Actor } from "../actor.ts";
import type { ClientInfo } from "./account_service.ts";
import { authError } from "../errors.ts";
import type { HttpError } from "../../core/mod.ts";
import { hashToken, looksLikeToken, newToken } from "../sessions/tokens.ts";
import type { AuthUser } from "./user.ts";
import { findUserByEmail, publicUser, type UserRecord } from "./user_store.ts";
import {
  accountTokenExpired,
  consumeAccountToken,
  deleteAccountTokens,
  replaceAccountToken,
} from "./account_token_store.ts";
import { accountTokenUsable, lockUser, setPassword } from "./account_store.ts";
import { deleteUserIdentities } from "../oauth/identity_store.ts";
import { removeSecondFactors } from "../two_factor/two_factor_store.ts";
import { deleteUserChallenges } from "../two_factor/challenge_store.ts";
import type {
  ChangePasswordBody,
  ForgotPasswordBody,
  ForgotPasswordResponse,
  ResetPasswordBody,
} from "./account_inputs.ts";
import {
  checkPassword,
  hashNewPassword,
  type LifecycleContext,
  nowIso,
} from "./lifecycle_context.ts";
import { revokeUserSessionsExcept } from "./session_list_store.ts";

/** The one answer of `POST /password/forgot`, whether or not the address has an account. */
export const FORGOT_PASSWORD_ANSWER: ForgotPasswordResponse = Object.freeze({
  message: "If an account uses this address, a password reset link is on its way to it",
});

/** The password operations of one module instance. */
export interface PasswordService {
  /** Mails a reset link if the address has an account; the same answer either way. */
  forgot(input: ForgotPasswordBody, client: ClientInfo): Promise<ForgotPasswordResponse>;
  /** Sets the password with a mailed token; every session of the user ends. */
  reset(input: ResetPasswordBody, client: ClientInfo): Promise<{ user: AuthUser }>;
  /** Replaces the actor's password after checking the current one. */
  change(
    actor: Actor,
    input: ChangePasswordBody,
    client: ClientInfo,
  ): Promise<{ user: AuthUser; revokedSessions: number }>;
}

/** Builds the password operations. */
export function passwordService(context: LifecycleContext): PasswordService {
  const { db, tables, hasher, limits, links, events } = context;

  async function resetTokenError(tokenHash: string | null): Promise<HttpError> {
    if (tokenHash && await accountTokenExpired(db, tables, "password_reset", tokenHash)) {
      return authError(
        "RESET_TOKEN_EXPIRED",
        "The password reset link has expired: ask for another",
      );
    }
    return authError(
      "INVALID_RESET_TOKEN",
      "The password reset link is invalid, was used, or was replaced by a newer one",
    );
  }

  /** Stores a fresh reset token (voiding the older ones) and mails it; failures are logged. */
  async function issueAndMail(user: UserRecord, request: Request | null): Promise<void> {
    try {
      const token = newToken();
      await replaceAccountToken(db, tables, {
        userId: user.id,
        purpose: "password_reset",
        email: user.email,
        tokenHash: hashToken(token),
        ttlSeconds: context.passwordResetTtlSeconds,
      });
      const url = links.link("resetPassword", token, request);
      await context.sendPasswordResetEmail({
        user: publicUser(user),
        email: user.email,
        token,
        url,
      });
    } catch (error) {
      console.error(
        `[auth] sendPasswordResetEmail failed for user ${user.id}:`,
        error instanceof Error ? error.message : "unknown error",
      );
    }
  }

  return {
    async forgot({ email }, client) {
      await limits.attempt({
        action: "password-forgot",
        ...client,
        email,
        countOnlyFailures: false,
        run: async () => {
          // The answer waits for one read, whether or not the address has an account; storing
          // the token and mailing it happen after the answer (so they cannot be timed).
          const user = await findUserByEmail(db, tables, email);
          if (user !== null) setTimeout(() => void issueAndMail(user, client.request), 0);
        },
      });
      return FORGOT_PASSWORD_ANSWER;
    },
    reset({ token, password }, client) {
      return limits.attempt({
        action: "password-reset",
        ...client,
        email: null,
        countOnlyFailures: false,
        run: async (key) => {
          if (!looksLikeToken(token)) throw await resetTokenError(null);
          const tokenHash = hashToken(token);
          // Cheap check first: a forged token costs a query, not a password hash.
          if (!await accountTokenUsable(db, tables, "password_reset", tokenHash)) {
            throw await resetTokenError(tokenHash);
          }
          hasher.refuseEarly?.({ key });
          const passwordHash = await hasher.hash(password, { key });
          const user = await db.transaction(async (tx) => {
            const consumed = await consumeAccountToken(tx, tables, "password_reset", tokenHash);
            if (!consumed) return null;
            const before = await lockUser(tx, tables, consumed.userId);
            const updated = await setPassword(tx, tables, {
              userId: consumed.userId,
              passwordHash,
              verifyEmail: consumed.email,
            });
            if (!updated) return null;
            const revoked = await revokeUserSessionsExcept(tx, tables, updated.id, null);
            await deleteAccountTokens(tx, tables, updated.id, "password_reset");
            await deleteUserChallenges(tx, tables, updated.id);
            const user = publicUser(updated);
            // The mailbox's owner takes over an account whose address nobody had proven: the
            // provider accounts connected meanwhile were not theirs to vouch for (an account
            // created at a provider with the victim's address, unverified: "pre-hijacking").
            // Nor were the second factors set up meanwhile: they would lock the owner out.
            if (before !== null && !before.emailVerified && updated.emailVerified) {
              for (const identity of await deleteUserIdentities(tx, tables, updated.id)) {
                await events.emit(tx, "identityUnlinked", {
                  user,
                  identity: { id: identity.id, provider: identity.provider, email: identity.email },
                  at: nowIso(),
                });
              }
              if (await removeSecondFactors(tx, tables, updated.id)) {
                await events.emit(tx, "twoFactorDisabled", {
                  user,
                  twoFactorEnabled: false,
                  reason: "addressProven",
                  at: nowIso(),
                });
              }
            }
            await events.emit(tx, "passwordReset", {
              user,
              revokedSessions: revoked.length,
              at: nowIso(),
            });
            return user;
          });
          if (user === null) throw await resetTokenError(tokenHash);
          events.wake();
          return { user };
        },
      });
    },
    async change(actor, { currentPassword, newPassword, revokeOtherSessions }, client) {
      await checkPassword(context, actor, currentPassword, client);
      const passwordHash = await hashNewPassword(context, newPassword);
      const result = await db.transaction(async (tx) => {
        const updated = await setPassword(tx, tables, {
          userId: actor.user.id,
          passwordHash,
          verifyEmail: null,
        });
        if (!updated) throw authError("UNAUTHENTICATED", "The account no longer exists");
        const revoked = revokeOtherSessions === false
          ? []
          : await revokeUserSessionsExcept(tx, tables, updated.id, actor.session?.id ?? null);
        // A reset link mailed before the change would undo it; a sign-in that proved the old
        // password and waits for its second step proves nothing now.
        await deleteAccountTokens(tx, tables, updated.id, "password_reset");
        await deleteUserChallenges(tx, tables, updated.id);
        const user = publicUser(updated);
        await events.emit(tx, "passwordChanged", {
          user,
          revokedSessions: revoked.length,
          at: nowIso(),
        });
        return { user, revokedSessions: revoked.length };
      });
      events.wake();
      return result;
    },
  };
}
