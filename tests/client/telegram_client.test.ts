// The typed client's Telegram calls (client.telegram.link/unlink/signIn) against the auth module
// served over real HTTP (PGlite), in a browser's way (a cookie-keeping fetch). Every answer is
// parsed with the route's response schema; the compiler checks the types against those schemas.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { z } from "zod";
import type { Equals } from "../../src/auth/http/exact_schema.ts";
import { credentialResponse } from "../../src/auth/account/responses.ts";
import { meResponse } from "../../src/auth/me/me_response.ts";
import {
  telegramLinkResponse,
  type telegramSignInBody,
} from "../../src/auth/telegram/telegram_inputs.ts";
import { type AuthClient, type AuthResult, createAuthClient } from "../../src/client/mod.ts";
import { type AuthTarget, closeSharedDatabase, serveAuth } from "../security/harness.ts";
import { signedInitData } from "../helpers/telegram_signing.ts";
import { cookieJar } from "./cookie_jar.ts";
import { expectData, expectError } from "./helpers.ts";

function assertType<T extends true>(_proof: T): void {}
type Argument<F> = F extends (...args: infer A) => unknown ? A[0] : never;
type Result<F> = F extends (...args: never[]) => Promise<AuthResult<infer T>> ? T : never;
assertType<
  Equals<Argument<AuthClient["telegram"]["signIn"]>, z.input<typeof telegramSignInBody>>
>(true);
assertType<Equals<Result<AuthClient["telegram"]["link"]>, z.output<typeof telegramLinkResponse>>>(
  true,
);
assertType<Equals<Result<AuthClient["telegram"]["unlink"]>, null>>(true);

const BOT_TOKEN = "7000000005:AAH-client_test_token_0123456789abcd";
let target: AuthTarget;

before(async () => {
  target = await serveAuth({ telegram: { botToken: BOT_TOKEN, botUsername: "client_test_bot" } });
});
after(async () => {
  await target.close();
  await closeSharedDatabase();
});

describe("typed auth client: Telegram calls", () => {
  it("telegram.link, the bot's /start, telegram.signIn (cookie), me(), telegram.unlink", async () => {
    const browser = createAuthClient({ baseUrl: target.url, fetch: cookieJar().fetch });
    expectData(
      await browser.signUp({ email: "tg-client@example.com", password: "correct horse battery" }),
      credentialResponse,
    );
    const link = expectData(await browser.telegram.link(), telegramLinkResponse);
    const start = new URL(link.url).searchParams.get("start")!;
    const linked = await target.module.api.confirmTelegramLink(start, { id: 4242, username: "tg" });
    assert.equal(linked.ok, true);

    const miniApp = createAuthClient({ baseUrl: target.url, fetch: cookieJar().fetch });
    const answer = await miniApp.telegram.signIn({
      initData: signedInitData(BOT_TOKEN, { id: 4242 }),
    });
    assert.ok(answer.data && "token" in answer.data, "no second factor: the credential");
    const signedIn = expectData({ data: answer.data, error: null }, credentialResponse);
    assert.equal(signedIn.user.email, "tg-client@example.com");
    const me = expectData(await miniApp.me(), meResponse);
    assert.deepEqual(me.user.telegram, { id: "4242", username: "tg" });

    const unlinked = await browser.telegram.unlink();
    assert.deepEqual(unlinked, { data: null, error: null });
    expectError(
      await miniApp.telegram.signIn({ initData: signedInitData(BOT_TOKEN, { id: 4242 }) }),
      401,
      "TELEGRAM_NOT_LINKED",
    );
    expectError(
      await miniApp.telegram.signIn({ initData: signedInitData(BOT_TOKEN, { id: 1 }, 1) }),
      401,
      "INVALID_TELEGRAM_DATA",
    );
  });
});
