/**
 * The mails of the account lifecycle: the password reset link and the email change
 * confirmation, delivered through the `sendPasswordResetEmail` and `sendEmailChangeEmail`
 * options. Their development defaults log the link, like `sendVerificationEmail`'s: the only
 * place the module prints a token.
 *
 * @module
 */

import type { AuthUser } from "./user.ts";

/**
 * What `sendPasswordResetEmail` receives: mail `url` (or `token`, for a link of your own) to
 * `email`.
 *
 * @example
 * ```ts
 * import type { PasswordResetEmail } from "@app/fragment-cli/auth";
 *
 * function text({ url }: PasswordResetEmail): string {
 *   return `Someone asked to reset your password. If it was you, open ${url} within an hour.`;
 * }
 * ```
 */
export interface PasswordResetEmail {
  /** The user whose password the token resets. */
  user: AuthUser;
  /** The address to send it to (the user's). */
  email: string;
  /** The token, for `POST /password/reset` with JSON `{ "token": …, "password": … }`. */
  token: string;
  /** The page that asks for the new password (`emailLinks.resetPassword`), absolute. */
  url: string;
}

/**
 * The `sendPasswordResetEmail` option: delivers one reset mail; awaited (queue a slow mailer).
 *
 * @example
 * ```ts
 * import type { SendPasswordResetEmail } from "@app/fragment-cli/auth";
 *
 * const sendPasswordResetEmail: SendPasswordResetEmail = async ({ email, url }) => {
 *   await fetch("https://mail.example.com/send", {
 *     method: "POST",
 *     body: JSON.stringify({ to: email, subject: "Reset your password", text: url }),
 *   });
 * };
 * ```
 */
export type SendPasswordResetEmail = (mail: PasswordResetEmail) => void | Promise<void>;

/**
 * What `sendEmailChangeEmail` receives: mail `url` to `email`, the NEW address (proving it).
 *
 * @example
 * ```ts
 * import type { EmailChangeEmail } from "@app/fragment-cli/auth";
 *
 * function text({ user, email, url }: EmailChangeEmail): string {
 *   return `Confirm ${email} as the new address of ${user.email}: ${url}`;
 * }
 * ```
 */
export interface EmailChangeEmail {
  /** The user changing their address (`user.email` is still the current one). */
  user: AuthUser;
  /** The new address: the mail goes there. */
  email: string;
  /** The token, for `POST /email/change/confirm` with JSON `{ "token": … }`. */
  token: string;
  /** The confirmation page (`emailLinks.confirmEmailChange`), absolute. */
  url: string;
}

/**
 * The `sendEmailChangeEmail` option: delivers one confirmation mail to the new address.
 *
 * @example
 * ```ts
 * import type { SendEmailChangeEmail } from "@app/fragment-cli/auth";
 *
 * const sendEmailChangeEmail: SendEmailChangeEmail = ({ email, url }) => {
 *   console.log(`queue a mail to ${email}: ${url}`);
 * };
 * ```
 */
export type SendEmailChangeEmail = (mail: EmailChangeEmail) => void | Promise<void>;

/** The development default of `sendPasswordResetEmail`: logs the link. */
export function logPasswordResetEmail(mail: PasswordResetEmail): void {
  console.log(
    `[auth] Password reset link for ${mail.email}: ${mail.url} (printed by the default ` +
      "sendPasswordResetEmail: set the option to mail it instead)",
  );
}

/** The development default of `sendEmailChangeEmail`: logs the link. */
export function logEmailChangeEmail(mail: EmailChangeEmail): void {
  console.log(
    `[auth] Email change confirmation link for ${mail.email}: ${mail.url} (printed by the ` +
      "default sendEmailChangeEmail: set the option to mail it instead)",
  );
}
