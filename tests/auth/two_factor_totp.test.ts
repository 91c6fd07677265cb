// deno-lint-ignore-file no-explicit-any
// TOTP and recovery codes over HTTP on PGlite: setting up (a new secret, sealed at rest, not active
// until a code confirms it; a repeated setup replaces it), enabling (the recovery codes, shown once,
// stored hashed; the user's flag; the event), the status, new recovery codes, disabling (passkeys
// stay), and the refusals: no or wrong password, a wrong or stale code, no setup, TOTP already
// enabled, a sealed secret copied to another user. Codes are computed with `otpauth`.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { ModuleConfigError } from "../../src/core/mod.ts";
import { auth, type AuthModule, scryptPasswordHasher } from "../../src/auth/mod.ts";
import { hashToken } from "../../src/auth/sessions/tokens.ts";
import { pgliteAdapter } from "../../src/sql/pglite_adapter.ts";
import { assertError, signUp, uniqueEmail } from "./helpers/http.ts";
import { accountModule, type Outbox, send } from "./helpers/account.ts";
import {
  answerChallenge,
  challengeOf,
  enableTotp,
  PASSWORD,
  totpCode,
  twoFactorUser,
} from "./helpers/two_factor.ts";

const db = pgliteAdapter();
let module: AuthModule;
let outbox: Outbox;

before(async () => {
  ({ module, outbox } = await accountModule(db));
});
after(() => db.close());

const status = async (token: string) => (await send(module, "GET", "/two-factor", { token })).body;
const setup = (token: string, body: unknown = { password: PASSWORD }) =>
  send(module, "POST", "/two-factor/totp/setup", { token, body });
const enable = (token: string, code: string) =>
  send(module, "POST", "/two-factor/totp/enable", { token, body: { code } });

async function totpRow(userId: string): Promise<any> {
  const [row] = await db.query(`SELECT * FROM auth.totp_factors WHERE user_id = $1`, [userId]);
  return row ?? null;
}

describe("POST /two-factor/totp/setup", () => {
  it("answers a 160-bit base32 secret and its otpauth URL; stores it sealed, not active", async () => {
    const signed = await signUp(module, uniqueEmail("setup"), PASSWORD);
    const answer = await setup(signed.token);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(Object.keys(answer.body).sort(), ["otpauthUrl", "secret"]);
    const { secret, otpauthUrl } = answer.body;
    assert.match(secret, /^[A-Z2-7]{32}$/, "20 bytes in base32");
    const url = new URL(otpauthUrl);
    assert.ok(
      otpauthUrl.startsWith(
        `otpauth://totp/app.example.com:${encodeURIComponent(signed.user.email)}?`,
      ),
      `issuer (publicOrigin's host) and the address: ${otpauthUrl}`,
    );
    assert.equal(url.searchParams.get("secret"), secret);
    assert.equal(url.searchParams.get("issuer"), "app.example.com");
    assert.equal(url.searchParams.get("digits"), "6");
    assert.equal(url.searchParams.get("period"), "30");
    assert.equal(url.searchParams.get("algorithm"), "SHA1");

    const row = await totpRow(signed.user.id);
    assert.equal(row.enabled_at, null);
    assert.match(row.secret_ciphertext, /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/, "96-bit IV");
    assert.ok(!JSON.stringify(row).includes(secret), "no plain secret at rest");
    assert.deepEqual(await status(signed.token), {
      enabled: false,
      totp: false,
      recoveryCodesLeft: 0,
      passkeys: 0,
    });
    // Not active: the password alone still signs in.
    const signIn = await send(module, "POST", "/sign-in", {
      body: { email: signed.user.email, password: PASSWORD },
    });
    assert.equal(typeof signIn.body.token, "string");
  });

  it("needs a credential and the password: 401 without one, 400 without the field, 401 when wrong", async () => {
    const signed = await signUp(module, uniqueEmail("setup-pw"), PASSWORD);
    assertError(await setup(undefined as any), 401, "UNAUTHENTICATED");
    assertError(await setup(signed.token, {}), 400, "VALIDATION_ERROR");
    assertError(await setup(signed.token, { password: "" }), 400, "VALIDATION_ERROR");
    assertError(
      await setup(signed.token, { password: "not the password" }),
      401,
      "INVALID_CREDENTIALS",
    );
    assert.equal(await totpRow(signed.user.id), null, "nothing stored");
  });

  it("a repeated setup replaces the unconfirmed one: the first secret's codes stop working", async () => {
    const signed = await signUp(module, uniqueEmail("resetup"), PASSWORD);
    const first = (await setup(signed.token)).body.secret;
    const second = (await setup(signed.token)).body.secret;
    assert.notEqual(first, second);
    assertError(await enable(signed.token, totpCode(first)), 401, "INVALID_TWO_FACTOR_CODE");
    assert.equal((await enable(signed.token, totpCode(second))).status, 200);
  });

  it("is refused with 409 TOTP_ALREADY_ENABLED once TOTP is enabled", async () => {
    const user = await twoFactorUser(module, "twice");
    const before = await totpRow(user.user.id);
    assertError(await setup(user.token), 409, "TOTP_ALREADY_ENABLED");
    assert.deepEqual(await totpRow(user.user.id), before, "the enabled secret is kept");
  });
});

describe("POST /two-factor/totp/enable", () => {
  it("confirms the setup with a code: 10 recovery codes shown once (hashed at rest), the flag, the event", async () => {
    const signed = await signUp(module, uniqueEmail("enable"), PASSWORD);
    const { secret } = (await setup(signed.token)).body;
    const answer = await enable(signed.token, totpCode(secret));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(Object.keys(answer.body), ["recoveryCodes"]);
    const codes: string[] = answer.body.recoveryCodes;
    assert.equal(codes.length, 10);
    assert.equal(new Set(codes).size, 10);
    for (const code of codes) assert.match(code, /^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
    const stored = await db.query<{ code_hash: string; used_at: Date | null }>(
      `SELECT code_hash, used_at FROM auth.recovery_codes WHERE user_id = $1`,
      [signed.user.id],
    );
    assert.deepEqual(
      stored.map((r) => r.code_hash).sort(),
      codes.map((c) => hashToken(c.replace("-", ""))).sort(),
      "only the SHA-256 of each code",
    );
    assert.ok(stored.every((r) => r.used_at === null));
    const row = await totpRow(signed.user.id);
    assert.ok(row.enabled_at instanceof Date);
    assert.equal(typeof row.last_used_step, "string", "the confirming code's step is spent");
    const [user] = await db.query<{ two_factor_enabled: boolean }>(
      `SELECT two_factor_enabled FROM auth.users WHERE id = $1`,
      [signed.user.id],
    );
    assert.equal(user.two_factor_enabled, true);
    assert.deepEqual(await status(signed.token), {
      enabled: true,
      totp: true,
      recoveryCodesLeft: 10,
      passkeys: 0,
    });
    await module.api.hooks!.drain();
    const event = outbox.events.find((e) =>
      e.name === "twoFactorEnabled" && e.payload.user.id === signed.user.id
    );
    assert.ok(event, "twoFactorEnabled recorded");
    assert.deepEqual(Object.keys(event.payload).sort(), ["at", "user"]);
    assertError(await enable(signed.token, totpCode(secret, 1)), 409, "TOTP_ALREADY_ENABLED");
  });

  it("refuses a wrong code, a code two steps old, a malformed one, and a missing setup", async () => {
    const signed = await signUp(module, uniqueEmail("wrong"), PASSWORD);
    assertError(await enable(signed.token, "123456"), 409, "TOTP_NOT_SET_UP");
    const { secret } = (await setup(signed.token)).body;
    const right = totpCode(secret);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
    assertError(await enable(signed.token, wrong), 401, "INVALID_TWO_FACTOR_CODE");
    assertError(await enable(signed.token, totpCode(secret, -3)), 401, "INVALID_TWO_FACTOR_CODE");
    assertError(await enable(signed.token, "12345a"), 401, "INVALID_TWO_FACTOR_CODE");
    assertError(
      await send(module, "POST", "/two-factor/totp/enable", { token: signed.token, body: {} }),
      400,
      "VALIDATION_ERROR",
    );
    assert.equal((await totpRow(signed.user.id)).enabled_at, null);
    assert.equal((await status(signed.token)).enabled, false);
    // The code as a person types it, with a space, is the right one.
    assert.equal(
      (await enable(signed.token, `${right.slice(0, 3)} ${right.slice(3)}`)).status,
      200,
    );
  });

  it("a sealed secret opens only for its own user: copied to another user's row, no code of it is accepted", async () => {
    const owner = await twoFactorUser(module, "sealed-owner");
    const thief = await twoFactorUser(module, "sealed-thief");
    await db.query(
      `UPDATE auth.totp_factors SET secret_ciphertext =
         (SELECT secret_ciphertext FROM auth.totp_factors WHERE user_id = $1), last_used_step = NULL
       WHERE user_id = $2`,
      [owner.user.id, thief.user.id],
    );
    const { challenge } = await challengeOf(module, thief.user.email);
    assertError(
      await answerChallenge(module, { challenge, code: totpCode(owner.secret, 1) }),
      401,
      "INVALID_TWO_FACTOR_CODE",
    );
  });
});

describe("POST /two-factor/recovery-codes", () => {
  it("needs the password and a second factor; new codes void the older ones", async () => {
    const plain = await signUp(module, uniqueEmail("no-factor"), PASSWORD);
    const regenerate = (token: string, body: unknown) =>
      send(module, "POST", "/two-factor/recovery-codes", { token, body });
    assertError(
      await regenerate(plain.token, { password: PASSWORD }),
      409,
      "TWO_FACTOR_NOT_ENABLED",
    );
    const user = await twoFactorUser(module, "regenerate");
    assertError(await regenerate(user.token, {}), 400, "VALIDATION_ERROR");
    assertError(
      await regenerate(user.token, { password: "wrong password" }),
      401,
      "INVALID_CREDENTIALS",
    );
    const answer = await regenerate(user.token, { password: PASSWORD });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const fresh: string[] = answer.body.recoveryCodes;
    assert.equal(fresh.length, 10);
    assert.ok(!fresh.some((code) => user.recoveryCodes.includes(code)));

    const old = await challengeOf(module, user.user.email);
    assertError(
      await answerChallenge(module, {
        challenge: old.challenge,
        recoveryCode: user.recoveryCodes[0],
      }),
      401,
      "INVALID_TWO_FACTOR_CODE",
    );
    const used = await answerChallenge(module, {
      challenge: old.challenge,
      recoveryCode: fresh[0].toUpperCase(),
    });
    assert.equal(used.status, 200, JSON.stringify(used.body));
  });
});

describe("POST /two-factor/disable", () => {
  it("needs the password; removes TOTP and the recovery codes; sign-in needs no second step then", async () => {
    const user = await twoFactorUser(module, "disable");
    const disable = (body: unknown) =>
      send(module, "POST", "/two-factor/disable", { token: user.token, body });
    assertError(await disable({}), 400, "VALIDATION_ERROR");
    assertError(await disable({ password: "wrong password" }), 401, "INVALID_CREDENTIALS");
    assert.equal((await status(user.token)).totp, true, "nothing removed without the password");
    const answer = await disable({ password: PASSWORD });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body, {
      enabled: false,
      totp: false,
      recoveryCodesLeft: 0,
      passkeys: 0,
    });
    assert.equal(await totpRow(user.user.id), null);
    const signIn = await send(module, "POST", "/sign-in", {
      body: { email: user.user.email, password: PASSWORD },
    });
    assert.equal(typeof signIn.body.token, "string");
    await module.api.hooks!.drain();
    const event = outbox.events.find((e) =>
      e.name === "twoFactorDisabled" && e.payload.user.id === user.user.id
    );
    assert.ok(event, "twoFactorDisabled recorded");
    assert.equal(event.payload.twoFactorEnabled, false);
    assert.equal(event.payload.reason, "disabled");
  });

  it("leaves the passkeys: the second factor remains, and the event says so", async () => {
    const user = await twoFactorUser(module, "keeps-passkey");
    await db.query(
      `INSERT INTO auth.passkeys (user_id, credential_id, public_key, device_type, name)
       VALUES ($1, $2, '\\x00', 'singleDevice', 'Laptop')`,
      [user.user.id, `credential-${user.user.id}`],
    );
    const answer = await send(module, "POST", "/two-factor/disable", {
      token: user.token,
      body: { password: PASSWORD },
    });
    assert.deepEqual(answer.body, {
      enabled: true,
      totp: false,
      recoveryCodesLeft: 0,
      passkeys: 1,
    });
    const pending = await challengeOf(module, user.user.email);
    assert.deepEqual(pending.methods, ["passkey"]);
    await module.api.hooks!.drain();
    const event = outbox.events.find((e) =>
      e.name === "twoFactorDisabled" && e.payload.user.id === user.user.id
    );
    assert.equal(event?.payload.twoFactorEnabled, true);
  });
});

describe("auth.api and the issuer option", () => {
  it("auth.api runs the same operations: twoFactorStatus, setupTotp, enableTotp, signIn's second step", async () => {
    const signed = await signUp(module, uniqueEmail("api"), PASSWORD);
    const actor = { userId: signed.user.id };
    const { secret, otpauthUrl } = await module.api.setupTotp(actor, { password: PASSWORD });
    assert.ok(otpauthUrl.includes(secret));
    const { recoveryCodes } = await module.api.enableTotp(actor, { code: totpCode(secret) });
    assert.equal(recoveryCodes.length, 10);
    assert.deepEqual(await module.api.twoFactorStatus(actor), {
      enabled: true,
      totp: true,
      recoveryCodesLeft: 10,
      passkeys: 0,
    });
    const first = await module.api.signIn({ email: signed.user.email, password: PASSWORD });
    assert.ok("twoFactorRequired" in first, "no credential from the password alone");
    const second = await module.api.signInWithSecondFactor({
      challenge: first.challenge,
      code: totpCode(secret, 1),
    });
    assert.equal(second.user.id, signed.user.id);
    assert.equal(second.redirectTo, null);
    await assert.rejects(
      module.api.enableTotp(actor, { code: totpCode(secret, 1) }),
      (error: any) => error.status === 409 && error.code === "TOTP_ALREADY_ENABLED",
    );
    const after = await module.api.disableTwoFactor(actor, { password: PASSWORD });
    assert.equal(after.enabled, false);
  });

  it("twoFactor.issuer names the account in the app; a bad one is a configuration error", async () => {
    const passwordHasher = scryptPasswordHasher({ params: { ln: 4 } });
    const named = auth({
      database: db,
      autoStart: false,
      passwordHasher,
      twoFactor: { issuer: "Acme Invoices" },
    });
    const signed = await signUp(named, uniqueEmail("issuer"), PASSWORD);
    const { otpauthUrl } = await named.api.setupTotp({ userId: signed.user.id }, {
      password: PASSWORD,
    });
    const url = new URL(otpauthUrl);
    assert.equal(url.searchParams.get("issuer"), "Acme Invoices");
    assert.ok(otpauthUrl.startsWith("otpauth://totp/Acme%20Invoices:"), otpauthUrl);
    const bare = auth({ database: db, autoStart: false, passwordHasher });
    const other = await signUp(bare, uniqueEmail("default-issuer"), PASSWORD);
    const plain = await bare.api.setupTotp({ userId: other.user.id }, { password: PASSWORD });
    assert.equal(new URL(plain.otpauthUrl).searchParams.get("issuer"), "fragment-cli");
    for (const issuer of ["", "a:b", "x".repeat(65)]) {
      assert.throws(
        () => auth({ database: db, twoFactor: { issuer } }),
        (error: unknown) =>
          error instanceof ModuleConfigError && /twoFactor\.issuer/.test(String(error)),
      );
    }
  });
});

describe("a user with TOTP enabled", () => {
  it("deleting the account deletes its sealed secret and recovery codes", async () => {
    const user = await twoFactorUser(module, "deleted");
    const deleted = await send(module, "POST", "/account/delete", {
      token: user.token,
      body: { password: PASSWORD },
    });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal(await totpRow(user.user.id), null);
    const [{ n }] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auth.recovery_codes WHERE user_id = $1`,
      [user.user.id],
    );
    assert.equal(n, 0);
  });

  it("can enable again after disabling, with a new secret", async () => {
    const user = await twoFactorUser(module, "again");
    await send(module, "POST", "/two-factor/disable", {
      token: user.token,
      body: { password: PASSWORD },
    });
    const second = await enableTotp(module, user.token);
    assert.notEqual(second.secret, user.secret);
    assert.equal((await status(user.token)).totp, true);
  });
});
