// The typed client's account calls against the auth module served over real HTTP (PGlite), in
// a browser's way (a cookie-keeping fetch): password forgot/reset/change, sessions
// list/revoke/revokeOthers, email change/confirm, account delete. Every answer is parsed with the
// route's response schema; the compiler checks the client's types against those schemas.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { z } from "zod";
import * as inputs from "../../src/auth/account/account_inputs.ts";
import type { Equals } from "../../src/auth/http/exact_schema.ts";
import type { EmailChangeEmail, PasswordResetEmail } from "../../src/auth/mod.ts";
import { type AuthClient, type AuthResult, createAuthClient } from "../../src/client/mod.ts";
import { DIRECT_ADD } from "../auth/helpers/organizations.ts";
import { waitForMail } from "../auth/helpers/account.ts";
import { type AuthTarget, closeSharedDatabase, serveAuth } from "../security/harness.ts";
import { cookieJar } from "./cookie_jar.ts";
import { expectData, expectError } from "./helpers.ts";

function assertType<T extends true>(_proof: T): void {}
type Argument<F, N extends number = 0> = F extends (...args: infer A) => unknown ? A[N] : never;
type Result<F> = F extends (...args: never[]) => Promise<AuthResult<infer T>> ? T : never;
type In<S extends z.ZodType> = z.input<S>;
type Out<S extends z.ZodType> = z.output<S>;
assertType<
  Equals<Argument<AuthClient["password"]["forgot"]>, In<typeof inputs.forgotPasswordBody>>
>(true);
assertType<Equals<Argument<AuthClient["password"]["reset"]>, In<typeof inputs.resetPasswordBody>>>(
  true,
);
assertType<
  Equals<Argument<AuthClient["password"]["change"]>, In<typeof inputs.changePasswordBody>>
>(true);
assertType<Equals<Argument<AuthClient["email"]["change"]>, In<typeof inputs.changeEmailBody>>>(
  true,
);
assertType<
  Equals<Argument<AuthClient["email"]["confirm"]>, In<typeof inputs.confirmEmailChangeBody>>
>(true);
assertType<Equals<Argument<AuthClient["account"]["delete"]>, In<typeof inputs.deleteAccountBody>>>(
  true,
);
assertType<Equals<Result<AuthClient["sessions"]["list"]>, Out<typeof inputs.listSessionsResponse>>>(
  true,
);
assertType<
  Equals<Result<AuthClient["sessions"]["revokeOthers"]>, Out<typeof inputs.revokedSessionsResponse>>
>(true);
assertType<
  Equals<Result<AuthClient["password"]["change"]>, Out<typeof inputs.changePasswordResponse>>
>(true);
assertType<
  Equals<Result<AuthClient["account"]["delete"]>, Out<typeof inputs.deleteAccountResponse>>
>(true);

const PASSWORD = "correct horse battery";
const resets: PasswordResetEmail[] = [];
const changes: EmailChangeEmail[] = [];
let target: AuthTarget;
let emails = 0;

const email = (tag: string) => `account-client-${tag}-${++emails}@example.com`;

before(async () => {
  target = await serveAuth({
    organizations: DIRECT_ADD,
    sendPasswordResetEmail: (mail) => void resets.push(mail),
    sendEmailChangeEmail: (mail) => void changes.push(mail),
  });
});
after(async () => {
  await target.close();
  await closeSharedDatabase();
});

function browser(): AuthClient {
  return createAuthClient({ baseUrl: target.url, fetch: cookieJar().fetch });
}

describe("typed auth client: account calls", () => {
  it("password.forgot, password.reset (every session ends), password.change", async () => {
    const client = browser();
    const address = email("pw");
    assert.equal((await client.signUp({ email: address, password: PASSWORD })).error, null);
    const resetsBefore = resets.length;
    const answer = expectData(
      await client.password.forgot({ email: address }),
      inputs.forgotPasswordResponse,
    );
    const unknown = await browser().password.forgot({ email: email("none") });
    assert.deepEqual(expectData(unknown, inputs.forgotPasswordResponse), answer);
    const mail = await waitForMail(resets, resetsBefore + 1);
    assert.equal(mail.email, address);
    assert.ok(mail.url.startsWith(`${target.origin}/#reset-password?token=`), mail.url);
    const reset = expectData(
      await browser().password.reset({ token: mail.token, password: "reset password 1" }),
      inputs.userAnswerResponse,
    );
    assert.equal(reset.user.emailVerified, true);
    expectError(await client.me(), 401, "UNAUTHENTICATED");
    expectError(
      await browser().password.reset({ token: mail.token, password: "reset password 2" }),
      400,
      "INVALID_RESET_TOKEN",
    );
    assert.equal(
      (await client.signIn({ email: address, password: "reset password 1" })).error,
      null,
    );
    expectError(
      await client.password.change({ currentPassword: "wrong one", newPassword: "whatever 123" }),
      401,
      "INVALID_CREDENTIALS",
    );
    const changed = expectData(
      await client.password.change({ currentPassword: "reset password 1", newPassword: PASSWORD }),
      inputs.changePasswordResponse,
    );
    assert.equal(changed.revokedSessions, 0);
  });

  it("sessions.list, sessions.revoke, sessions.revokeOthers", async () => {
    const laptop = browser();
    const phone = browser();
    const address = email("sessions");
    await laptop.signUp({ email: address, password: PASSWORD });
    await phone.signIn({ email: address, password: PASSWORD });
    const third = browser();
    await third.signIn({ email: address, password: PASSWORD });
    const listed = expectData(await laptop.sessions.list(), inputs.listSessionsResponse);
    assert.equal(listed.sessions.length, 3);
    const phoneSession = expectData(await phone.sessions.list(), inputs.listSessionsResponse)
      .sessions.find((s) => s.current)!;
    const revoked = await laptop.sessions.revoke(phoneSession.id);
    assert.deepEqual(revoked, { data: null, error: null });
    expectError(await phone.me(), 401, "UNAUTHENTICATED");
    expectError(await laptop.sessions.revoke(phoneSession.id), 404, "NOT_FOUND");
    assert.deepEqual(
      expectData(await laptop.sessions.revokeOthers(), inputs.revokedSessionsResponse),
      { revokedSessions: 1 },
    );
    expectError(await third.me(), 401, "UNAUTHENTICATED");
    assert.equal((await laptop.me()).error, null);
  });

  it("email.change, email.confirm, account.delete", async () => {
    const client = browser();
    const address = email("old");
    await client.signUp({ email: address, password: PASSWORD });
    const newAddress = email("new");
    expectData(
      await client.email.change({ newEmail: newAddress, password: PASSWORD }),
      inputs.changeEmailResponse,
    );
    const mail = changes.at(-1)!;
    assert.equal(mail.email, newAddress);
    const confirmed = expectData(
      await browser().email.confirm({ token: mail.token }),
      inputs.userAnswerResponse,
    );
    assert.equal(confirmed.user.email, newAddress);
    assert.equal((await client.me()).data?.user.email, newAddress);
    expectError(
      await client.account.delete({ password: "wrong password" }),
      401,
      "INVALID_CREDENTIALS",
    );
    const deleted = expectData(
      await client.account.delete({ password: PASSWORD }),
      inputs.deleteAccountResponse,
    );
    assert.equal(deleted.userId, confirmed.user.id);
    expectError(await client.me(), 401, "UNAUTHENTICATED");
  });
});
