/**
 * Passwordless sign-in by email link. `send` answers the same, after the same work, whether or not
 * the address has an account: the rate limits and one read are on the answer's path, while storing
 * the token and mailing it happen after the answer (so they cannot be timed). `signIn` consumes the
 * single-use token in one transaction: the address counts as verified, an address without an
 * account gets one (`emailLinkSignUp`), and a credential is issued like `POST /sign-in`'s.
 *
 * @module
 */

import type { SqlAdapter, SqlTransaction } from "../../sql/mod.ts";
import type { CredentialRateLimits } from "../abuse/credential_rate_limits.ts";
import {
  type ClientInfo,
  credentialBody,
  issueCredential,
  type UserCreatedHook,
} from "../account/account_service.ts";
import { challengeBody } from "../two_factor/second_step.ts";
import { removeSecondFactors } from "../two_factor/two_factor_store.ts";
import { deleteAccountTokens } from "../account/account_token_store.ts";
import { deleteVerificationTokens } from "../account/account_store.ts";
import type { EmailLinkBuilder } from "../account/email_links.ts";
import { revokeUserSessionsExcept } from "../account/session_list_store.ts";
import { findUserByEmail, publicUser, type UserRecord } from "../account/user_store.ts";
import { authError } from "../errors.ts";
import type { OriginPolicy } from "../http/origin_check.ts";
import { checkRedirectTarget } from "../http/redirect_target.ts";
import { hashToken, looksLikeToken, newToken } from "../sessions/tokens.ts";
import type { AuthTableNames } from "../tables.ts";
import { unlinkAccount } from "../telegram/telegram_store.ts";
import { deleteUserIdentities } from "../oauth/identity_store.ts";
import type { AccountEvents } from "../account/account_events.ts";
import type {
  AuthEmailLinkAnswer,
  AuthEmailLinkSent,
  AuthSendEmailLinkBody,
  AuthVerifyEmailLinkBody,
} from "./email_link_inputs.ts";
import type { SendSignInEmail } from "./email_link_mail.ts";
import {
  claimUnverifiedAccount,
  consumeEmailLinkToken,
  emailLinkExpired,
  insertLinkedUser,
  lockUserByEmail,
  lockUserWithEmail,
  replaceEmailLinkToken,
} from "./email_link_store.ts";

/** How long a sign-in link works: 15 minutes. */
export const EMAIL_LINK_TTL_SECONDS = 15 * 60;

/** The one answer of `POST /sign-in/email-link`, whatever the address. */
export const EMAIL_LINK_SENT: AuthEmailLinkSent = Object.freeze({
  message: "If this address can sign in, a sign-in link is on its way to it",
});

/** The email link operations of one module instance. */
export interface EmailLinkService {
  /** Mails a sign-in link if the address may sign in; the same answer either way. */
  send(input: AuthSendEmailLinkBody, client: ClientInfo): Promise<AuthEmailLinkSent>;
  /**
   * Signs in with a mailed link's token (single use, 15 minutes); for a user with a second
   * factor, the challenge of the second step instead of the credential.
   */
  signIn(input: AuthVerifyEmailLinkBody, client: ClientInfo): Promise<AuthEmailLinkAnswer>;
}

/** What {@link emailLinkService} needs. */
export interface EmailLinkServiceOptions {
  db: SqlAdapter;
  tables: AuthTableNames;
  limits: CredentialRateLimits;
  links: EmailLinkBuilder;
  sendSignInEmail: SendSignInEmail;
  /** `emailLinkSignUp`: an address without an account gets a link that creates it. */
  signUp: boolean;
  /** The credential lifetime, in seconds. */
  ttlSeconds: number;
  /** The origins a `redirectTo` may name (`publicOrigin`, `trustedOrigins`). */
  origins: OriginPolicy;
  /** Called in the transaction that creates an account (its first organization). */
  onUserCreated?: UserCreatedHook;
  /** The account events (`identityUnlinked` when a claim disconnects provider accounts). */
  events: AccountEvents;
}

function invalidLink() {
  return authError(
    "INVALID_SIGN_IN_LINK",
    "The sign-in link is invalid, was used, or was replaced by a newer one",
  );
}

/** Builds the email link operations of one module instance. */
export function emailLinkService(options: EmailLinkServiceOptions): EmailLinkService {
  const { db, tables, limits, links, signUp, origins } = options;

  /** Stores a fresh link (voiding the address's older ones) and mails it; failures are logged. */
  async function issueAndMail(
    email: string,
    user: UserRecord | null,
    redirectTo: string | null,
    request: Request | null,
  ): Promise<void> {
    try {
      const token = newToken();
      await replaceEmailLinkToken(db, tables, {
        email,
        userId: user?.id ?? null,
        tokenHash: hashToken(token),
        redirectTo,
        ttlSeconds: EMAIL_LINK_TTL_SECONDS,
      });
      await options.sendSignInEmail({
        email,
        url: links.link("signIn", token, request),
        token,
        user: user === null ? null : publicUser(user),
      });
    } catch (error) {
      console.error(
        "[auth] sendSignInEmail failed:",
        error instanceof Error ? error.message : "unknown error",
      );
    }
  }

  /**
   * The account a consumed link signs in to, verified, in the transaction; `null` when it is gone
   * (deleted, or its address changed since the link was mailed).
   */
  async function accountOf(
    tx: SqlTransaction,
    link: { email: string; userId: string | null },
  ): Promise<
    { user: UserRecord; activeOrganizationId: string | null; emitted?: boolean } | null
  > {
    let record: UserRecord | null;
    if (link.userId !== null) {
      record = await lockUserWithEmail(tx, tables, link.userId, link.email);
    } else {
      // A link mailed to an address without an account (emailLinkSignUp): create it, unless it
      // was created meanwhile (then the proven address signs in to that one).
      const created = signUp ? await insertLinkedUser(tx, tables, link.email) : null;
      if (created !== null) {
        const activeOrganizationId = options.onUserCreated
          ? await options.onUserCreated(tx, publicUser(created))
          : null;
        return { user: created, activeOrganizationId };
      }
      record = await lockUserByEmail(tx, tables, link.email);
    }
    if (record === null) return null;
    if (record.emailVerified) return { user: record, activeOrganizationId: null };
    const claimed = await claimUnverifiedAccount(tx, tables, record.id);
    if (claimed === null) return { user: record, activeOrganizationId: null };
    // Whoever set up the unverified account never proved the mailbox: their way back in goes.
    await revokeUserSessionsExcept(tx, tables, record.id, null);
    await deleteAccountTokens(tx, tables, record.id);
    await deleteVerificationTokens(tx, tables, record.id);
    await unlinkAccount(tx, tables, record.id);
    // The provider accounts connected meanwhile were not the mailbox owner's to vouch for either,
    // nor the second factors (TOTP, recovery codes, passkeys), which would lock the owner out.
    const user = publicUser(claimed);
    const identities = await deleteUserIdentities(tx, tables, record.id);
    for (const identity of identities) {
      await options.events.emit(tx, "identityUnlinked", {
        user,
        identity: { id: identity.id, provider: identity.provider, email: identity.email },
        at: new Date().toISOString(),
      });
    }
    const hadFactor = await removeSecondFactors(tx, tables, record.id);
    if (hadFactor) {
      await options.events.emit(tx, "twoFactorDisabled", {
        user,
        twoFactorEnabled: false,
        reason: "addressProven",
        at: new Date().toISOString(),
      });
    }
    return {
      user: claimed,
      activeOrganizationId: null,
      emitted: identities.length > 0 || hadFactor,
    };
  }

  return {
    async send({ email, redirectTo }, client) {
      // Checked first: a refusal says nothing about the address.
      const target = redirectTo === undefined ? null : checkRedirectTarget(redirectTo, origins);
      await limits.attempt({
        action: "email-link",
        ...client,
        email,
        countOnlyFailures: false,
        run: async () => {
          // The answer waits for one read, whether or not the address has an account; storing
          // the token and mailing it happen after the answer (so they cannot be timed).
          const user = await findUserByEmail(db, tables, email);
          if (user !== null || signUp) {
            setTimeout(() => void issueAndMail(email, user, target, client.request), 0);
          }
        },
      });
      return EMAIL_LINK_SENT;
    },
    // Anonymous: limited per client address (a token is 256 bits, but each guess costs a query).
    signIn({ token }, client) {
      return limits.attempt({
        action: "email-link-verify",
        ...client,
        email: null,
        countOnlyFailures: false,
        run: async () => {
          if (!looksLikeToken(token)) throw invalidLink();
          const tokenHash = hashToken(token);
          const userAgent = client.request?.headers.get("user-agent") ?? null;
          const issued = await db.transaction(async (tx) => {
            const link = await consumeEmailLinkToken(tx, tables, tokenHash);
            if (link === null) return null;
            const account = await accountOf(tx, link);
            if (account === null) return { gone: true as const };
            const outcome = await issueCredential(tx, tables, {
              user: publicUser(account.user),
              ttlSeconds: options.ttlSeconds,
              signInMethod: "emailLink",
              activeOrganizationId: account.activeOrganizationId,
              userAgent,
              redirectTo: link.redirectTo,
            });
            return {
              answer: "challenge" in outcome ? challengeBody(outcome) : credentialBody(outcome),
              link,
              emitted: account.emitted === true,
            };
          });
          if (issued === null) {
            if (await emailLinkExpired(db, tables, tokenHash)) {
              throw authError(
                "SIGN_IN_LINK_EXPIRED",
                "The sign-in link has expired: ask for another",
              );
            }
            throw invalidLink();
          }
          if ("gone" in issued) throw invalidLink();
          if (issued.emitted) options.events.wake();
          return { ...issued.answer, redirectTo: issued.link.redirectTo };
        },
      });
    },
  };
}
