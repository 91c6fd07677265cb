/**
 * Email verification: a single-use, expiring token mailed through the `sendVerificationEmail`
 * option at sign-up and on request, proving the user reads mail at their address. Only the
 * token's SHA-256 is stored; the token exists in plain text in the mail (and, with the dev
 * default, in the console) alone.
 *
 * @module
 */

import type { SqlAdapter } from "../../sql/mod.ts";
import {
  consumeVerificationToken,
  replaceVerificationToken,
  verificationTokenState,
} from "./email_verification_store.ts";
import type { EmailLinkBuilder } from "./email_links.ts";
import { authError } from "../errors.ts";
import type { AuthTableNames } from "../tables.ts";
import { hashToken, looksLikeToken, newToken } from "../sessions/tokens.ts";
import type { AuthUser } from "./user.ts";
import { publicUser } from "./user_store.ts";

/**
 * What `sendVerificationEmail` receives: mail `url` (or `token`, for a link of your own) to
 * `email`.
 *
 * @example
 * ```ts
 * import { auth, pgliteAdapter } from "@app/fragment-cli";
 * import type { VerificationEmail } from "@app/fragment-cli/auth";
 *
 * const outbox: VerificationEmail[] = [];
 * auth({
 *   database: pgliteAdapter(),
 *   publicOrigin: "https://app.example.com",
 *   sendVerificationEmail: (mail) => {
 *     outbox.push(mail); // a queue that a mailer drains: `Open ${mail.url} to confirm it.`
 *   },
 * });
 * ```
 */
export interface VerificationEmail {
  /** The user the token verifies. */
  user: AuthUser;
  /** The address to send it to (the one the token proves). */
  email: string;
  /** The token, for `POST /verify-email` with JSON `{ "token": … }`. */
  token: string;
  /**
   * The absolute link `<origin><mountRoute>/verify-email?token=<token>`: opened in a browser,
   * `GET /verify-email` verifies and redirects to the app (`emailLinks.afterVerifyEmail`). The
   * origin is `publicOrigin`, else the address `serve()` listens at (`emailLinks.verifyEmail`
   * points it elsewhere). Never built from a `Host` a client chose on a public address.
   */
  url: string;
}

/**
 * The `sendVerificationEmail` option: delivers one verification mail. It is awaited, so a slow
 * mailer should queue.
 *
 * @example
 * ```ts
 * import type { SendVerificationEmail } from "@app/fragment-cli/auth";
 *
 * const sendVerificationEmail: SendVerificationEmail = async ({ email, url }) => {
 *   await fetch("https://mail.example.com/send", {
 *     method: "POST",
 *     body: JSON.stringify({ to: email, subject: "Confirm your address", text: url }),
 *   });
 * };
 * ```
 */
export type SendVerificationEmail = (mail: VerificationEmail) => void | Promise<void>;

/**
 * The development default of `sendVerificationEmail`: logs the link to the console. It is the
 * only place the module ever prints a token; configure the option in production.
 */
export function logVerificationEmail(mail: VerificationEmail): void {
  console.log(
    `[auth] Verification link for ${mail.email}: ${mail.url} (open it to verify; printed by ` +
      "the default sendVerificationEmail: set the option to mail it instead)",
  );
}

/** Sending and checking verification tokens for one module instance. */
export interface EmailVerification {
  /**
   * Mails a fresh token to the user's address; earlier tokens stop working. Throws the mailer's
   * errors. `request` (if any) gives the link's origin in local development.
   */
  send(user: AuthUser, request?: Request | null): Promise<void>;
  /** {@link EmailVerification.send} after sign-up: a mailer failure is logged, not thrown. */
  sendAfterSignUp(user: AuthUser, request?: Request | null): Promise<void>;
  /**
   * Consumes a token and marks its user verified. 400 `INVALID_VERIFICATION_TOKEN` for an
   * unknown, used or replaced token or one sent to an address the user no longer has; 410
   * `VERIFICATION_TOKEN_EXPIRED` for an expired one.
   */
  verify(token: string): Promise<AuthUser>;
}

/** What {@link createEmailVerification} needs. */
export interface EmailVerificationOptions {
  db: SqlAdapter;
  tables: AuthTableNames;
  sendEmail: SendVerificationEmail;
  ttlSeconds: number;
  /** Builds the mailed link. */
  links: EmailLinkBuilder;
}

/** Builds the email verification of one module instance. */
export function createEmailVerification(options: EmailVerificationOptions): EmailVerification {
  const { db, tables, sendEmail, ttlSeconds, links } = options;
  const verification: EmailVerification = {
    async send(user, request = null) {
      const token = newToken();
      await replaceVerificationToken(db, tables, {
        userId: user.id,
        email: user.email,
        tokenHash: hashToken(token),
        ttlSeconds,
      });
      const url = links.link("verifyEmail", token, request);
      await sendEmail({ user: publicUser(user), email: user.email, token, url });
    },
    async sendAfterSignUp(user, request = null) {
      try {
        await verification.send(user, request);
      } catch (error) {
        // The account exists: the user asks for another mail with POST /verify-email/resend.
        console.error(
          `[auth] sendVerificationEmail failed after the sign-up of user ${user.id}:`,
          error instanceof Error ? error.message : error,
        );
      }
    },
    async verify(token) {
      const invalid = () =>
        authError("INVALID_VERIFICATION_TOKEN", "The verification token is invalid or was used");
      if (!looksLikeToken(token)) throw invalid();
      const tokenHash = hashToken(token);
      const user = await consumeVerificationToken(db, tables, tokenHash);
      if (user) return publicUser(user);
      if (await verificationTokenState(db, tables, tokenHash) === "expired") {
        throw authError("VERIFICATION_TOKEN_EXPIRED", "The verification token has expired");
      }
      throw invalid();
    },
  };
  return verification;
}
