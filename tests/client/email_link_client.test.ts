// The typed client's email link calls (client.emailLink.send/verify) against the auth module served
// over real HTTP (PGlite), in a browser's way (a cookie-keeping fetch): ask for a link, sign in with
// its token (the cookie alone then carries the session), and the refusals. Every answer is parsed
// with the route's response schema; the compiler checks the types against those schemas.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { z } from "zod";
import type { Equals } from "../../src/auth/http/exact_schema.ts";
import { credentialResponse } from "../../src/auth/account/responses.ts";
import { meResponse } from "../../src/auth/me/me_response.ts";
import {
  type emailLinkAnswerResponse,
  emailLinkCredentialResponse,
  emailLinkSentResponse,
  type sendEmailLinkBody,
  type verifyEmailLinkBody,
} from "../../src/auth/email_link/email_link_inputs.ts";
import type { SignInEmail } from "../../src/auth/mod.ts";
import { type AuthClient, type AuthResult, createAuthClient } from "../../src/client/mod.ts";
import { waitForMail } from "../auth/helpers/account.ts";
import { type AuthTarget, closeSharedDatabase, serveAuth } from "../security/harness.ts";
import { cookieJar } from "./cookie_jar.ts";
import { expectData, expectError } from "./helpers.ts";

function assertType<T extends true>(_proof: T): void {}
type Argument<F> = F extends (...args: infer A) => unknown ? A[0] : never;
type Result<F> = F extends (...args: never[]) => Promise<AuthResult<infer T>> ? T : never;
assertType<Equals<Argument<AuthClient["emailLink"]["send"]>, z.input<typeof sendEmailLinkBody>>>(
  true,
);
assertType<
  Equals<Argument<AuthClient["emailLink"]["verify"]>, z.input<typeof verifyEmailLinkBody>>
>(true);
assertType<
  Equals<Result<AuthClient["emailLink"]["send"]>, z.output<typeof emailLinkSentResponse>>
>(true);
assertType<
  Equals<Result<AuthClient["emailLink"]["verify"]>, z.output<typeof emailLinkAnswerResponse>>
>(true);

const mails: SignInEmail[] = [];
let target: AuthTarget;

before(async () => {
  target = await serveAuth({
    publicOrigin: "http://app.localhost",
    sendSignInEmail: (mail) => void mails.push(mail),
  });
});
after(async () => {
  await target.close();
  await closeSharedDatabase();
});

describe("typed auth client: email link calls", () => {
  it("emailLink.send, then emailLink.verify with the link's token signs in (cookie), me()", async () => {
    const laptop = createAuthClient({ baseUrl: target.url, fetch: cookieJar().fetch });
    const email = "link-client@example.com";
    expectData(
      await laptop.signUp({ email, password: "correct horse battery" }),
      credentialResponse,
    );

    const phone = createAuthClient({ baseUrl: target.url, fetch: cookieJar().fetch });
    const sent = expectData(
      await phone.emailLink.send({ email, redirectTo: "/invoices" }),
      emailLinkSentResponse,
    );
    assert.deepEqual(
      expectData(
        await phone.emailLink.send({ email: "nobody@example.com" }),
        emailLinkSentResponse,
      ),
      sent,
    );
    const mail = await waitForMail(mails, 1); // none for the unknown address
    const token = new URLSearchParams(new URL(mail.url).hash.split("?")[1]).get("token");
    assert.equal(token, mail.token);
    expectError(await phone.me(), 401, "UNAUTHENTICATED");
    const answer = await phone.emailLink.verify({ token: token! });
    assert.ok(answer.data && "token" in answer.data, "no second factor: the credential");
    const signedIn = expectData({ data: answer.data, error: null }, emailLinkCredentialResponse);
    assert.equal(signedIn.user.email, email);
    assert.equal(signedIn.user.emailVerified, true);
    assert.equal(signedIn.redirectTo, "/invoices");
    const me = expectData(await phone.me(), meResponse);
    assert.equal(me.user.email, email);

    expectError(await phone.emailLink.verify({ token: token! }), 400, "INVALID_SIGN_IN_LINK");
    expectError(
      await phone.emailLink.send({ email, redirectTo: "https://evil.example/" }),
      400,
      "INVALID_REDIRECT",
    );
  });
});
