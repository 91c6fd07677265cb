/**
 * The rule every sign-in obeys: a user with a second factor (`users.two_factor_enabled`) gets no
 * credential from the first step, but a challenge to answer with that factor. `issueCredential()`
 * (account/account_service.ts), where the password, email link, provider and Telegram sign-ins
 * all end, asks {@link secondStepFor} before it starts a session.
 *
 * @module
 */

import type { SqlQuerier } from "../../sql/mod.ts";
import type { AuthUser } from "../account/user.ts";
import { hashToken, newToken } from "../sessions/tokens.ts";
import type { AuthTableNames } from "../tables.ts";
import { insertChallenge } from "./challenge_store.ts";
import type { AuthTwoFactorChallenge, AuthTwoFactorMethod } from "./two_factor_inputs.ts";
import { secondStepMethods } from "./two_factor_store.ts";

/** How a sign-in's first step proved who the user is. */
export type SignInMethod = "password" | "emailLink" | "oauth" | "telegram" | "passkey";

/** What a sign-in would give its credential: kept by the challenge until the second step. */
export interface SignInContext {
  user: AuthUser;
  signInMethod: SignInMethod;
  activeOrganizationId: string | null;
  userAgent: string | null;
  /** The email link's or the provider flow's `redirectTo`. */
  redirectTo?: string | null;
}

/** A sign-in that stopped before its credential: the challenge to answer, shown once. */
export interface SecondStepRequired {
  user: AuthUser;
  challenge: string;
  methods: AuthTwoFactorMethod[];
}

/**
 * In the sign-in's transaction: the second step the user owes (a new challenge, only its SHA-256
 * stored), or `null` for a user without a second factor.
 */
export async function secondStepFor(
  db: SqlQuerier,
  tables: AuthTableNames,
  context: SignInContext,
): Promise<SecondStepRequired | null> {
  const methods = await secondStepMethods(db, tables, context.user.id);
  if (methods === null) return null;
  const challenge = newToken();
  await insertChallenge(db, tables, hashToken(challenge), {
    userId: context.user.id,
    signInMethod: context.signInMethod,
    activeOrganizationId: context.activeOrganizationId,
    userAgent: context.userAgent,
    redirectTo: context.redirectTo ?? null,
  });
  return { user: context.user, challenge, methods };
}

/** The answer of a sign-in that needs its second step. */
export function challengeBody(pending: SecondStepRequired): AuthTwoFactorChallenge {
  return { twoFactorRequired: true, challenge: pending.challenge, methods: pending.methods };
}
