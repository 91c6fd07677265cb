/**
 * Changing the address: the signed-in user asks with their password, a single-use token goes to
 * the NEW address, and whoever holds it confirms. The switch re-checks that nobody took the
 * address meanwhile (409 `EMAIL_TAKEN`), marks it verified, and readdresses the pending
 * invitations of a verified old address to the new one.
 *
 * @module
 */

import type { Actor } from "../actor.ts";
import type { ClientInfo } from "./account_service.ts";
import { authError } from "../errors.ts";
import type { HttpError } from "../../core/mod.ts";
import { hashToken, looksLikeToken, newToken } from "../sessions/tokens.ts";
import type { AuthUser } from "./user.ts";
import { findUserByEmail, publicUser } from "./user_store.ts";
import type {
  ChangeEmailBody,
  ConfirmEmailChangeBody,
  ForgotPasswordResponse,
} from "./account_inputs.ts";
import {
  deleteVerificationTokens,
  lockUser,
  readdressPendingInvitations,
  setVerifiedEmail,
} from "./account_store.ts";
import {
  accountTokenExpired,
  consumeAccountToken,
  deleteAccountTokens,
  replaceAccountToken,
} from "./account_token_store.ts";
import { checkPassword, type LifecycleContext, nowIso } from "./lifecycle_context.ts";

/** The email change operations of one module instance. */
export interface EmailChangeService {
  /** Mails a confirmation link to `newEmail` (202); 409 `EMAIL_TAKEN` when it has an account. */
  request(
    actor: Actor,
    input: ChangeEmailBody,
    client: ClientInfo,
  ): Promise<ForgotPasswordResponse>;
  /** Switches the address with the mailed token. */
  confirm(input: ConfirmEmailChangeBody, client: ClientInfo): Promise<{ user: AuthUser }>;
}

const taken = () => authError("EMAIL_TAKEN", "An account with this email already exists");

/** Builds the email change operations. */
export function emailChangeService(context: LifecycleContext): EmailChangeService {
  const { db, tables, limits, links, events } = context;

  async function tokenError(tokenHash: string | null): Promise<HttpError> {
    if (tokenHash && await accountTokenExpired(db, tables, "email_change", tokenHash)) {
      return authError("EMAIL_CHANGE_TOKEN_EXPIRED", "The confirmation link has expired");
    }
    return authError(
      "INVALID_EMAIL_CHANGE_TOKEN",
      "The confirmation link is invalid, was used, or was replaced by a newer one",
    );
  }

  return {
    async request(actor, { newEmail, password }, client) {
      await checkPassword(context, actor, password, client);
      if (newEmail === actor.user.email) throw taken();
      // Each request mails an address the caller names: limited per address and per client.
      await limits.attempt({
        action: "email-change",
        ...client,
        email: newEmail,
        countOnlyFailures: false,
        run: async () => {
          if (await findUserByEmail(db, tables, newEmail)) throw taken();
          const token = newToken();
          await replaceAccountToken(db, tables, {
            userId: actor.user.id,
            purpose: "email_change",
            email: newEmail,
            tokenHash: hashToken(token),
            ttlSeconds: context.emailChangeTtlSeconds,
          });
          const url = links.link("confirmEmailChange", token, client.request);
          await context.sendEmailChangeEmail({
            user: publicUser(actor.user),
            email: newEmail,
            token,
            url,
          });
        },
      });
      return { message: "A confirmation link was sent to the new address" };
    },
    confirm({ token }, client) {
      return limits.attempt({
        action: "email-change-confirm",
        ...client,
        email: null,
        countOnlyFailures: false,
        run: async () => {
          if (!looksLikeToken(token)) throw await tokenError(null);
          const tokenHash = hashToken(token);
          const user = await db.transaction(async (tx) => {
            const consumed = await consumeAccountToken(tx, tables, "email_change", tokenHash);
            if (!consumed) return null;
            const before = await lockUser(tx, tables, consumed.userId);
            if (!before) return null;
            // Throws 409 EMAIL_TAKEN (and rolls back) if the address was taken meanwhile.
            const after = publicUser(await setVerifiedEmail(tx, tables, before.id, consumed.email));
            if (before.emailVerified) {
              await readdressPendingInvitations(tx, tables, before.email, after.email);
            }
            await deleteVerificationTokens(tx, tables, before.id);
            await deleteAccountTokens(tx, tables, before.id);
            await events.emit(tx, "emailChanged", {
              user: after,
              previousEmail: before.email,
              at: nowIso(),
            });
            return after;
          });
          if (user === null) throw await tokenError(tokenHash);
          events.wake();
          return { user };
        },
      });
    },
  };
}
