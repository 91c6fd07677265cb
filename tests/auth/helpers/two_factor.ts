// deno-lint-ignore-file no-explicit-any
/**
 * Fixtures for the second-factor tests: TOTP codes computed with the library the module uses
 * (`otpauth`), a user with TOTP enabled over HTTP, and a password sign-in that stops at the
 * second step.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Secret, TOTP } from "otpauth";
import type { AuthModule } from "../../../src/auth/mod.ts";
import { send } from "./account.ts";
import { signUp, uniqueEmail } from "./http.ts";

/** The password of the fixtures' users. */
export const PASSWORD = "correct horse battery";

/**
 * The code of `secret` for the time step `steps` away from now: `0` is the current step, `1`
 * the next one (accepted too: one step of drift), `-2` one the module refuses.
 */
export function totpCode(secret: string, steps = 0): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: 6,
    period: 30,
    timestamp: Date.now() + steps * 30_000,
  });
}

/** A signed-up user with TOTP enabled: their token, user, secret and recovery codes. */
export interface TwoFactorUser {
  token: string;
  user: { id: string; email: string; role: string; emailVerified: boolean };
  secret: string;
  recoveryCodes: string[];
}

/** Sets up and enables TOTP for a signed-in user (with the current step's code). */
export async function enableTotp(
  module: AuthModule,
  token: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await send(module, "POST", "/two-factor/totp/setup", {
    token,
    body: { password: PASSWORD },
  });
  assert.equal(setup.status, 200, JSON.stringify(setup.body));
  const enabled = await send(module, "POST", "/two-factor/totp/enable", {
    token,
    body: { code: totpCode(setup.body.secret) },
  });
  assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
  return { secret: setup.body.secret, recoveryCodes: enabled.body.recoveryCodes };
}

/** Signs a new user up (at `email`, else a fresh address) and enables their TOTP. */
export async function twoFactorUser(
  module: AuthModule,
  label = "2fa",
  email: string = uniqueEmail(label),
): Promise<TwoFactorUser> {
  const signed = await signUp(module, email, PASSWORD);
  return { ...signed, ...await enableTotp(module, signed.token) };
}

/** `POST /sign-in` with the fixtures' password, expected to stop at the second step. */
export async function challengeOf(
  module: AuthModule,
  email: string,
  options: { remoteAddress?: string } = {},
): Promise<{ challenge: string; methods: string[]; body: any; headers: Headers }> {
  const answer = await send(module, "POST", "/sign-in", {
    body: { email, password: PASSWORD },
    ...options,
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(answer.body.twoFactorRequired, true, JSON.stringify(answer.body));
  return { ...answer.body, body: answer.body, headers: answer.headers };
}

/** `POST /sign-in/two-factor`. */
export function answerChallenge(
  module: AuthModule,
  body: { challenge: string; code?: string; recoveryCode?: string },
  options: { remoteAddress?: string } = {},
) {
  return send(module, "POST", "/sign-in/two-factor", { body, ...options });
}
