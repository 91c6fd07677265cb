// deno-lint-ignore-file no-explicit-any
// The second step of a sign-in over HTTP on PGlite: a user with TOTP gets from POST /sign-in a
// challenge and no credential (no token, no cookie), then the credential from
// POST /sign-in/two-factor with a TOTP code or a recovery code (once); the same rule for the email
// link and Telegram sign-ins; sign-up never asks; and the owner of an address taken back from a
// squatter (email link, password reset) is not blocked by the squatter's second factors.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule, SignInEmail } from "../../src/auth/mod.ts";
import { hashToken } from "../../src/auth/sessions/tokens.ts";
import { pgliteAdapter } from "../../src/sql/pglite_adapter.ts";
import { signedInitData } from "../helpers/telegram_signing.ts";
import { assertError, uniqueEmail } from "./helpers/http.ts";
import { accountModule, type Outbox, send, waitForMail } from "./helpers/account.ts";
import {
  answerChallenge,
  challengeOf,
  PASSWORD,
  totpCode,
  twoFactorUser,
} from "./helpers/two_factor.ts";

const BOT_TOKEN = "7000000001:AAH-telegram_test_token_0123456789ab";
const db = pgliteAdapter();
let module: AuthModule;
let outbox: Outbox;
const mails: SignInEmail[] = [];

before(async () => {
  ({ module, outbox } = await accountModule(db, {
    telegram: { botToken: BOT_TOKEN, botUsername: "fragment_test_bot" },
    sendSignInEmail: (mail) => void mails.push(mail),
  }));
});
after(() => db.close());

/** Asks for a sign-in link to `email` (with `redirectTo`) and returns its token. */
async function linkToken(email: string, redirectTo?: string): Promise<string> {
  const before = mails.length;
  const asked = await send(module, "POST", "/sign-in/email-link", {
    body: redirectTo === undefined ? { email } : { email, redirectTo },
  });
  assert.equal(asked.status, 202);
  return (await waitForMail(mails, before + 1)).token;
}

async function count(table: string, userId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM auth.${table} WHERE user_id = $1`,
    [userId],
  );
  return row.n;
}

describe("POST /sign-in for a user with TOTP", () => {
  it("answers the challenge and issues nothing: no token, no cookie, no session", async () => {
    const user = await twoFactorUser(module, "first-step");
    const sessionsBefore = await count("sessions", user.user.id);
    const answer = await send(module, "POST", "/sign-in", {
      body: { email: user.user.email, password: PASSWORD },
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(Object.keys(answer.body).sort(), [
      "challenge",
      "methods",
      "twoFactorRequired",
    ]);
    assert.equal(answer.body.twoFactorRequired, true);
    assert.deepEqual(answer.body.methods, ["totp", "recoveryCode"]);
    assert.match(answer.body.challenge, /^[A-Za-z0-9_-]{43}$/, "256 bits");
    assert.equal(answer.headers.get("set-cookie"), null);
    assert.equal(await count("sessions", user.user.id), sessionsBefore);
    const [row] = await db.query<any>(
      `SELECT *, extract(epoch FROM expires_at - created_at)::int AS ttl
       FROM auth.two_factor_challenges WHERE user_id = $1`,
      [user.user.id],
    );
    assert.equal(row.token_hash, hashToken(answer.body.challenge), "only its SHA-256");
    assert.equal(row.sign_in_method, "password");
    assert.equal(row.ttl, 300, "5 minutes");
    assert.equal(row.attempts, 0);
    // The challenge is no credential.
    for (const path of ["/me", "/session"]) {
      assertError(
        await send(module, "GET", path, { token: answer.body.challenge }),
        401,
        "UNAUTHENTICATED",
      );
    }
  });

  it("a wrong password is still INVALID_CREDENTIALS (no challenge)", async () => {
    const user = await twoFactorUser(module, "wrong-password");
    assertError(
      await send(module, "POST", "/sign-in", {
        body: { email: user.user.email, password: "not the password" },
      }),
      401,
      "INVALID_CREDENTIALS",
    );
    assert.equal(await count("two_factor_challenges", user.user.id), 0);
  });

  it("POST /sign-in/two-factor with a TOTP code: the credential and its cookie; the challenge is spent", async () => {
    const user = await twoFactorUser(module, "second-step");
    const { challenge } = await challengeOf(module, user.user.email);
    const answer = await answerChallenge(module, { challenge, code: totpCode(user.secret, 1) });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(Object.keys(answer.body).sort(), ["expiresAt", "redirectTo", "token", "user"]);
    assert.equal(answer.body.user.id, user.user.id);
    assert.equal(answer.body.redirectTo, null);
    assert.match(answer.headers.get("set-cookie")!, /^service_auth=[A-Za-z0-9_-]{43};.*HttpOnly/);
    const me = await send(module, "GET", "/me", { token: answer.body.token });
    assert.equal(me.status, 200);
    assert.equal(me.body.user.email, user.user.email);
    assert.equal(await count("two_factor_challenges", user.user.id), 0);
  });

  it("the session keeps the first step's User-Agent", async () => {
    const user = await twoFactorUser(module, "user-agent");
    const first = await send(module, "POST", "/sign-in", {
      body: { email: user.user.email, password: PASSWORD },
      headers: { "user-agent": "FirstStep/1.0" },
    });
    const second = await send(module, "POST", "/sign-in/two-factor", {
      body: { challenge: first.body.challenge, code: totpCode(user.secret, 1) },
      headers: { "user-agent": "SomethingElse/2.0" },
    });
    const listed = await send(module, "GET", "/sessions", { token: second.body.token });
    const current = listed.body.sessions.find((s: any) => s.current);
    assert.equal(current.userAgent, "FirstStep/1.0");
  });

  it("a recovery code answers once; the event says how many remain; methods drop it when none is left", async () => {
    const user = await twoFactorUser(module, "recovery");
    const first = await challengeOf(module, user.user.email);
    const used = await answerChallenge(module, {
      challenge: first.challenge,
      recoveryCode: user.recoveryCodes[3],
    });
    assert.equal(used.status, 200, JSON.stringify(used.body));
    const status = await send(module, "GET", "/two-factor", { token: used.body.token });
    assert.equal(status.body.recoveryCodesLeft, 9);
    await module.api.hooks!.drain();
    const event = outbox.events.find((e) =>
      e.name === "recoveryCodeUsed" && e.payload.user.id === user.user.id
    );
    assert.ok(event, "recoveryCodeUsed recorded");
    assert.equal(event.payload.recoveryCodesLeft, 9);

    await db.query(`UPDATE auth.recovery_codes SET used_at = now() WHERE user_id = $1`, [
      user.user.id,
    ]);
    assert.deepEqual((await challengeOf(module, user.user.email)).methods, ["totp"]);
  });

  it("a new password voids the challenges the old one earned", async () => {
    const user = await twoFactorUser(module, "password-changed");
    const { challenge } = await challengeOf(module, user.user.email);
    const changed = await send(module, "POST", "/password/change", {
      token: user.token,
      body: { currentPassword: PASSWORD, newPassword: "another long password" },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assertError(
      await answerChallenge(module, { challenge, code: totpCode(user.secret, 1) }),
      400,
      "INVALID_TWO_FACTOR_CHALLENGE",
    );
  });

  it("sign-up never asks: a new user has no second factor", async () => {
    const signed = await send(module, "POST", "/sign-up", {
      body: { email: uniqueEmail("new"), password: PASSWORD },
    });
    assert.equal(typeof signed.body.token, "string");
    assert.equal(signed.body.twoFactorRequired, undefined);
  });
});

describe("the email link sign-in of a user with TOTP", () => {
  it("answers the challenge with redirectTo and no cookie; the second step answers redirectTo too", async () => {
    const user = await twoFactorUser(module, "link");
    // A verified address: a link to an unverified one takes the account back (see below).
    await db.query(`UPDATE auth.users SET email_verified_at = now() WHERE id = $1`, [user.user.id]);
    const token = await linkToken(user.user.email, "/invoices");
    const first = await send(module, "POST", "/sign-in/email-link/verify", { body: { token } });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(
      Object.keys(first.body).sort(),
      ["challenge", "methods", "redirectTo", "twoFactorRequired"],
    );
    assert.equal(first.body.redirectTo, "/invoices");
    assert.equal(first.headers.get("set-cookie"), null);
    const [row] = await db.query<any>(
      `SELECT sign_in_method, redirect_to FROM auth.two_factor_challenges WHERE token_hash = $1`,
      [hashToken(first.body.challenge)],
    );
    assert.deepEqual(row, { sign_in_method: "emailLink", redirect_to: "/invoices" });
    const second = await answerChallenge(module, {
      challenge: first.body.challenge,
      code: totpCode(user.secret, 1),
    });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body.redirectTo, "/invoices");
    assert.match(second.headers.get("set-cookie")!, /^service_auth=/);
  });
});

describe("the Telegram sign-in of a user with TOTP", () => {
  it("answers the same challenge as POST /sign-in, and no cookie", async () => {
    const user = await twoFactorUser(module, "telegram");
    const link = await send(module, "POST", "/telegram/link", { token: user.token });
    const linkToken = new URL(link.body.url).searchParams.get("start")!;
    const telegramId = 6_000_000_000 + Math.floor(Math.random() * 1_000_000);
    assert.equal((await module.api.confirmTelegramLink(linkToken, { id: telegramId })).ok, true);
    const initData = signedInitData(BOT_TOKEN, { id: telegramId, username: "tg" });
    const first = await send(module, "POST", "/telegram/sign-in", { body: { initData } });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(Object.keys(first.body).sort(), ["challenge", "methods", "twoFactorRequired"]);
    assert.equal(first.headers.get("set-cookie"), null);
    const second = await answerChallenge(module, {
      challenge: first.body.challenge,
      code: totpCode(user.secret, 1),
    });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body.user.id, user.user.id);
  });
});

describe("an address taken back from whoever set the account up (pre-hijacking)", () => {
  async function squat(label: string) {
    const victim = uniqueEmail(label);
    const squatter = await twoFactorUser(module, label, victim);
    await db.query(
      `INSERT INTO auth.passkeys (user_id, credential_id, public_key, device_type, name)
       VALUES ($1, $2, '\\x00', 'singleDevice', 'Squatter key')`,
      [squatter.user.id, `squat-${squatter.user.id}`],
    );
    return { victim, squatter };
  }

  async function assertFactorsGone(userId: string) {
    for (const table of ["totp_factors", "recovery_codes", "passkeys", "two_factor_challenges"]) {
      assert.equal(await count(table, userId), 0, table);
    }
    const [row] = await db.query<{ two_factor_enabled: boolean }>(
      `SELECT two_factor_enabled FROM auth.users WHERE id = $1`,
      [userId],
    );
    assert.equal(row.two_factor_enabled, false);
    await module.api.hooks!.drain();
    const event = outbox.events.find((e) =>
      e.name === "twoFactorDisabled" && e.payload.user.id === userId
    );
    assert.equal(event?.payload.reason, "addressProven");
    assert.equal(event?.payload.twoFactorEnabled, false);
  }

  it("the owner's email link signs in at once: the squatter's TOTP, recovery codes and passkeys go", async () => {
    const { victim, squatter } = await squat("squat-link");
    await challengeOf(module, victim); // a pending second step of the squatter's
    const answer = await send(module, "POST", "/sign-in/email-link/verify", {
      body: { token: await linkToken(victim) },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(typeof answer.body.token, "string", "a credential, not a challenge");
    assert.equal(answer.body.twoFactorRequired, undefined);
    await assertFactorsGone(squatter.user.id);
  });

  it("the owner's password reset takes the squatter's factors away: the new password signs in alone", async () => {
    const { victim, squatter } = await squat("squat-reset");
    const before = outbox.resets.length;
    await send(module, "POST", "/password/forgot", { body: { email: victim } });
    const mail = await waitForMail(outbox.resets, before + 1);
    const reset = await send(module, "POST", "/password/reset", {
      body: { token: mail.token, password: "the owner's new password" },
    });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    await assertFactorsGone(squatter.user.id);
    const signIn = await send(module, "POST", "/sign-in", {
      body: { email: victim, password: "the owner's new password" },
    });
    assert.equal(typeof signIn.body.token, "string", "a credential, not a challenge");
  });

  it("a verified account keeps its factors through an email link and a reset", async () => {
    const user = await twoFactorUser(module, "verified-keeps");
    await db.query(`UPDATE auth.users SET email_verified_at = now() WHERE id = $1`, [user.user.id]);
    const answer = await send(module, "POST", "/sign-in/email-link/verify", {
      body: { token: await linkToken(user.user.email) },
    });
    assert.equal(answer.body.twoFactorRequired, true);
    assert.equal(await count("totp_factors", user.user.id), 1);
  });
});
