// The typed client's second-factor calls (client.twoFactor.*, client.signIn.twoFactor) against the
// auth module served over real HTTP (PGlite), in a browser's way (a cookie-keeping fetch): set up
// and enable TOTP, sign out, sign in with the password (the answer is the challenge, narrowed on
// `twoFactorRequired`), then with the code (the cookie alone carries the session); a recovery code
// once; new codes; disable. Every answer is parsed with the route's response schema; the compiler
// checks the client's types against those schemas.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { z } from "zod";
import type { Equals } from "../../src/auth/http/exact_schema.ts";
import { credentialResponse } from "../../src/auth/account/responses.ts";
import { meResponse } from "../../src/auth/me/me_response.ts";
import {
  type enableTotpBody,
  recoveryCodesResponse,
  signInResponse,
  type signInTwoFactorBody,
  totpSetupResponse,
  twoFactorChallengeResponse,
  twoFactorCredentialResponse,
  type twoFactorPasswordBody,
  twoFactorStatusResponse,
} from "../../src/auth/two_factor/two_factor_inputs.ts";
import { type AuthClient, type AuthResult, createAuthClient } from "../../src/client/mod.ts";
import { totpCode } from "../auth/helpers/two_factor.ts";
import { type AuthTarget, closeSharedDatabase, serveAuth } from "../security/harness.ts";
import { cookieJar } from "./cookie_jar.ts";
import { expectData, expectError } from "./helpers.ts";

function assertType<T extends true>(_proof: T): void {}
type Argument<F> = F extends (...args: infer A) => unknown ? A[0] : never;
type Result<F> = F extends (...args: never[]) => Promise<AuthResult<infer T>> ? T : never;
type TwoFactor = AuthClient["twoFactor"];
assertType<Equals<Result<AuthClient["signIn"]>, z.output<typeof signInResponse>>>(true);
assertType<
  Equals<Argument<AuthClient["signIn"]["twoFactor"]>, z.input<typeof signInTwoFactorBody>>
>(true);
assertType<
  Equals<Result<AuthClient["signIn"]["twoFactor"]>, z.output<typeof twoFactorCredentialResponse>>
>(true);
assertType<Equals<Result<TwoFactor["status"]>, z.output<typeof twoFactorStatusResponse>>>(true);
assertType<Equals<Argument<TwoFactor["setupTotp"]>, z.input<typeof twoFactorPasswordBody>>>(true);
assertType<Equals<Result<TwoFactor["setupTotp"]>, z.output<typeof totpSetupResponse>>>(true);
assertType<Equals<Argument<TwoFactor["enableTotp"]>, z.input<typeof enableTotpBody>>>(true);
assertType<Equals<Result<TwoFactor["enableTotp"]>, z.output<typeof recoveryCodesResponse>>>(true);
assertType<
  Equals<Result<TwoFactor["regenerateRecoveryCodes"]>, z.output<typeof recoveryCodesResponse>>
>(true);
assertType<Equals<Result<TwoFactor["disable"]>, z.output<typeof twoFactorStatusResponse>>>(true);

const PASSWORD = "correct horse battery";
let target: AuthTarget;

before(async () => {
  target = await serveAuth({ publicOrigin: "http://app.localhost" });
});
after(async () => {
  await target.close();
  await closeSharedDatabase();
});

describe("typed auth client: second factors", () => {
  it("twoFactor.setupTotp/enableTotp, then signIn answers the challenge and signIn.twoFactor the credential", async () => {
    const laptop = createAuthClient({ baseUrl: target.url, fetch: cookieJar().fetch });
    const email = "two-factor-client@example.com";
    expectData(await laptop.signUp({ email, password: PASSWORD }), credentialResponse);
    expectError(
      await laptop.twoFactor.setupTotp({ password: "wrong password" }),
      401,
      "INVALID_CREDENTIALS",
    );
    const setup = expectData(
      await laptop.twoFactor.setupTotp({ password: PASSWORD }),
      totpSetupResponse,
    );
    expectError(
      await laptop.twoFactor.enableTotp({ code: "000000" }),
      401,
      "INVALID_TWO_FACTOR_CODE",
    );
    const { recoveryCodes } = expectData(
      await laptop.twoFactor.enableTotp({ code: totpCode(setup.secret) }),
      recoveryCodesResponse,
    );
    assert.deepEqual(expectData(await laptop.twoFactor.status(), twoFactorStatusResponse), {
      enabled: true,
      totp: true,
      recoveryCodesLeft: 10,
      passkeys: 0,
    });

    const phone = createAuthClient({ baseUrl: target.url, fetch: cookieJar().fetch });
    const first = expectData(await phone.signIn({ email, password: PASSWORD }), signInResponse);
    if (!("twoFactorRequired" in first)) throw new Error("expected the second step");
    expectData({ data: first, error: null }, twoFactorChallengeResponse);
    assert.deepEqual(first.methods, ["totp", "recoveryCode"]);
    expectError(await phone.me(), 401, "UNAUTHENTICATED");
    const second = expectData(
      await phone.signIn.twoFactor({ challenge: first.challenge, code: totpCode(setup.secret, 1) }),
      twoFactorCredentialResponse,
    );
    assert.equal(second.user.email, email);
    assert.equal(expectData(await phone.me(), meResponse).user.email, email);

    const tablet = createAuthClient({ baseUrl: target.url, fetch: cookieJar().fetch });
    const again = expectData(await tablet.signIn({ email, password: PASSWORD }), signInResponse);
    assert.ok("challenge" in again);
    expectData(
      await tablet.signIn.twoFactor({ challenge: again.challenge, recoveryCode: recoveryCodes[0] }),
      twoFactorCredentialResponse,
    );
    expectError(
      await tablet.signIn.twoFactor({ challenge: again.challenge, recoveryCode: recoveryCodes[0] }),
      400,
      "INVALID_TWO_FACTOR_CHALLENGE",
    );

    const fresh = expectData(
      await laptop.twoFactor.regenerateRecoveryCodes({ password: PASSWORD }),
      recoveryCodesResponse,
    );
    assert.equal(fresh.recoveryCodes.length, 10);
    assert.deepEqual(
      expectData(await laptop.twoFactor.disable({ password: PASSWORD }), twoFactorStatusResponse),
      { enabled: false, totp: false, recoveryCodesLeft: 0, passkeys: 0 },
    );
    const plain = expectData(await tablet.signIn({ email, password: PASSWORD }), signInResponse);
    assert.ok("token" in plain, "no second step once disabled");
  });
});
