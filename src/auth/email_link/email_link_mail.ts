/**
 * The sign-in mail of `POST /sign-in/email-link`, delivered through the `sendSignInEmail` option.
 * Its development default logs the link, like the other mails' defaults.
 *
 * @module
 */

import type { AuthUser } from "../account/user.ts";

/**
 * What `sendSignInEmail` receives: mail `url` (or `token`, for a link of your own) to `email`.
 *
 * @example
 * ```ts
 * import type { SignInEmail } from "@app/fragment-cli/auth";
 *
 * function text({ url, user }: SignInEmail): string {
 *   const greeting = user === null ? "Welcome!" : "Welcome back!";
 *   return `${greeting} Open ${url} within 15 minutes to sign in.`;
 * }
 * ```
 */
export interface SignInEmail {
  /** The address to send it to (normalized: trimmed, lower-cased). */
  email: string;
  /**
   * The page of the app that signs in (`emailLinks.signIn`), absolute, with the token in its
   * fragment: `https://app.example.com/#sign-in-link?token=…`. Opening it consumes nothing; the
   * page posts the token to `POST /sign-in/email-link/verify`.
   */
  url: string;
  /** The token, for `POST /sign-in/email-link/verify` with JSON `{ "token": … }`. */
  token: string;
  /**
   * The account the link signs in to; `null` for an address without one (only with
   * `emailLinkSignUp: true`: the account is created when the link is used).
   */
  user: AuthUser | null;
}

/**
 * The `sendSignInEmail` option: delivers one sign-in mail. Called after the answer (which must
 * not tell whether the address has an account); a failure is logged.
 *
 * @example
 * ```ts
 * import type { SendSignInEmail } from "@app/fragment-cli/auth";
 *
 * const sendSignInEmail: SendSignInEmail = async ({ email, url }) => {
 *   await fetch("https://mail.example.com/send", {
 *     method: "POST",
 *     body: JSON.stringify({ to: email, subject: "Your sign-in link", text: url }),
 *   });
 * };
 * ```
 */
export type SendSignInEmail = (mail: SignInEmail) => void | Promise<void>;

/** The development default of `sendSignInEmail`: logs the link. */
export function logSignInEmail(mail: SignInEmail): void {
  console.log(
    `[auth] Sign-in link for ${mail.email}: ${mail.url} (printed by the default ` +
      "sendSignInEmail: set the option to mail it instead)",
  );
}
