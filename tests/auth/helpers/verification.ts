/**
 * Email verification in tests: a `sendVerificationEmail` that keeps the mails instead of sending
 * them, and a helper that verifies a user through the real `POST /verify-email` route with the
 * token of their latest mail.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { AuthOptions, VerificationEmail } from "../../../src/auth/mod.ts";
import type { ModuleInstance } from "../../../src/core/mod.ts";
import { call } from "./http.ts";

/** The mails a module sent, by user id (latest last). */
export type Mailbox = Map<string, VerificationEmail[]>;

const mailboxes = new WeakMap<ModuleInstance, Mailbox>();

/**
 * `options` with a `sendVerificationEmail` that keeps every mail in `mailbox` (then calls the
 * test's own sender, if it gave one).
 */
export function withMailbox<Options extends Partial<AuthOptions>>(
  options: Options,
  mailbox: Mailbox,
): Options {
  const own = options.sendVerificationEmail;
  return {
    ...options,
    sendVerificationEmail: async (mail: VerificationEmail) => {
      mailbox.set(mail.user.id, [...(mailbox.get(mail.user.id) ?? []), mail]);
      await own?.(mail);
    },
  };
}

/** Registers the mailbox of a module (see {@link withMailbox}) for {@link verifyEmail}. */
export function registerMailbox(module: ModuleInstance, mailbox: Mailbox): void {
  mailboxes.set(module, mailbox);
}

/** The latest verification mail a module sent to a user. */
export function latestMail(module: ModuleInstance, userId: string): VerificationEmail {
  const mail = mailboxes.get(module)?.get(userId)?.at(-1);
  assert.ok(mail, `no verification mail for user ${userId} (module without a mailbox?)`);
  return mail;
}

/** Verifies a user's address through `POST /verify-email` with the token of their latest mail. */
export async function verifyEmail(module: ModuleInstance, userId: string): Promise<void> {
  const result = await call(module, "POST", "/verify-email", {
    body: { token: latestMail(module, userId).token },
  });
  assert.equal(result.status, 200, JSON.stringify(result.body));
}
