// deno-lint-ignore-file no-explicit-any
// Passkeys over HTTP on PGlite, with real WebAuthn responses from a software authenticator (P-256
// from Web Crypto, attestation "none"): the creation options (relying party from publicOrigin,
// user verification required, the user's passkeys excluded, the challenge hashed at rest), adding,
// listing, renaming and removing a passkey (the second-factor flag and the passkeyAdded and
// passkeyRemoved events with it), the passwordless sign-in (request options for a discoverable
// credential, the credential answer and cookie, the counter and last use recorded), the relying
// party without publicOrigin (loopback only), the last way in, account deletion, and auth.api.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { AuthModule, AuthOptions } from "../../src/auth/mod.ts";
import { hashToken } from "../../src/auth/sessions/tokens.ts";
import { pgliteAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { assertError, signUp, uniqueEmail } from "./helpers/http.ts";
import { accountModule, type Outbox, send } from "./helpers/account.ts";
import { authenticate, register, type SoftwarePasskey } from "./helpers/software_authenticator.ts";

const PASSWORD = "correct horse battery";
const ORIGIN = "https://app.example.com";

let db: SqlAdapter;
let module: AuthModule;
let outbox: Outbox;
let namespaces = 0;

async function passkeyModule(options: Partial<AuthOptions> = {}) {
  return await accountModule(db, { namespace: `passkeys_${++namespaces}`, ...options });
}

before(async () => {
  db = pgliteAdapter();
  ({ module, outbox } = await passkeyModule());
});
after(() => db.close());

/** Asks for creation options, answers them with the software authenticator, posts the answer. */
async function addPasskey(token: string, body: Record<string, unknown> = {}, target = module) {
  const options = await send(target, "POST", "/passkeys/registration-options", { token });
  assert.equal(options.status, 200, JSON.stringify(options.body));
  const { response, passkey } = await register(options.body, { origin: ORIGIN });
  const added = await send(target, "POST", "/passkeys", { token, body: { response, ...body } });
  return { options: options.body, added, passkey };
}

/** Signs in with `passkey` through the options and the assertion routes. */
async function signInWith(passkey: SoftwarePasskey, target = module) {
  const options = await send(target, "POST", "/sign-in/passkey/options");
  assert.equal(options.status, 200, JSON.stringify(options.body));
  const response = await authenticate(passkey, options.body, { origin: ORIGIN });
  return await send(target, "POST", "/sign-in/passkey", { body: { response } });
}

async function twoFactorFlag(userId: string, namespace = `passkeys_1`): Promise<boolean> {
  const [row] = await db.query<{ flag: boolean }>(
    `SELECT two_factor_enabled AS flag FROM "${namespace}".users WHERE id = $1`,
    [userId],
  );
  return row.flag;
}

describe("POST /passkeys/registration-options", () => {
  it("answers creation options for the caller, with the challenge stored only as its SHA-256", async () => {
    const user = await signUp(module, uniqueEmail("options"), PASSWORD);
    const result = await send(module, "POST", "/passkeys/registration-options", {
      token: user.token,
    });
    assert.equal(result.status, 200, JSON.stringify(result.body));
    const options = result.body;
    assert.deepEqual(options.rp, { id: "app.example.com", name: "app.example.com" });
    assert.equal(options.user.name, user.user.email);
    assert.equal(options.user.displayName, user.user.email);
    assert.equal(Buffer.from(options.user.id, "base64url").toString(), user.user.id);
    assert.match(options.challenge, /^[A-Za-z0-9_-]{43}$/, "32 bytes in base64url");
    assert.deepEqual(options.authenticatorSelection, {
      residentKey: "preferred",
      requireResidentKey: false,
      userVerification: "required",
    });
    assert.deepEqual(options.excludeCredentials, []);
    assert.deepEqual(options.pubKeyCredParams.map((p: any) => p.alg), [-8, -7, -257]);
    assert.equal(options.attestation, "none");
    assert.equal(options.timeout, 300_000);
    const rows = await db.query<{ challenge_hash: string; purpose: string; user_id: string }>(
      `SELECT challenge_hash, purpose, user_id::text AS user_id,
         round(extract(epoch FROM expires_at - now()))::int AS ttl
       FROM "passkeys_1".webauthn_challenges WHERE user_id = $1`,
      [user.user.id],
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0].challenge_hash, hashToken(options.challenge));
    assert.equal(rows[0].purpose, "registration");
    assert.ok(Math.abs((rows[0] as any).ttl - 300) <= 2, "5 minutes");
  });

  it("excludes the caller's passkeys (and only theirs)", async () => {
    const owner = await signUp(module, uniqueEmail("exclude"), PASSWORD);
    const other = await signUp(module, uniqueEmail("exclude-other"), PASSWORD);
    const { added } = await addPasskey(owner.token);
    await addPasskey(other.token);
    const again = await send(module, "POST", "/passkeys/registration-options", {
      token: owner.token,
    });
    assert.equal(again.body.excludeCredentials.length, 1);
    const [excluded] = again.body.excludeCredentials;
    assert.equal(excluded.type, "public-key");
    assert.deepEqual(excluded.transports, ["internal", "hybrid"], "unknown transports dropped");
    const [row] = await db.query<{ credential_id: string }>(
      `SELECT credential_id FROM "passkeys_1".passkeys WHERE id = $1`,
      [added.body.id],
    );
    assert.equal(excluded.id, row.credential_id);
  });
});

describe("POST /passkeys, GET, PATCH and DELETE /passkeys/:passkeyId", () => {
  it("adds a passkey: 201, stored with its public key and counter, the second-factor flag set", async () => {
    const user = await signUp(module, uniqueEmail("add"), PASSWORD);
    assert.equal(await twoFactorFlag(user.user.id), false);
    const { added, passkey } = await addPasskey(user.token);
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.deepEqual(Object.keys(added.body).sort(), [
      "backedUp",
      "createdAt",
      "deviceType",
      "id",
      "lastUsedAt",
      "name",
    ]);
    assert.equal(added.body.name, "Passkey 1");
    assert.equal(added.body.lastUsedAt, null);
    assert.equal(added.body.deviceType, "singleDevice");
    assert.equal(added.body.backedUp, false);
    assert.equal(await twoFactorFlag(user.user.id), true);
    const [row] = await db.query<any>(
      `SELECT credential_id, public_key, counter::int AS counter, transports
       FROM "passkeys_1".passkeys WHERE id = $1`,
      [added.body.id],
    );
    assert.equal(row.credential_id, passkey.id);
    assert.ok(row.public_key instanceof Uint8Array && row.public_key.length > 64, "COSE key");
    assert.equal(row.counter, 0);
    assert.equal(row.transports, "internal,hybrid");
    const challenges = await db.query(
      `SELECT 1 FROM "passkeys_1".webauthn_challenges WHERE user_id = $1`,
      [user.user.id],
    );
    assert.equal(challenges.length, 0, "the challenge was used up");
  });

  it("names passkeys: the given name trimmed, else Passkey <n>; 64 characters at most", async () => {
    const user = await signUp(module, uniqueEmail("names"), PASSWORD);
    const first = await addPasskey(user.token, { name: "  Work laptop " });
    assert.equal(first.added.body.name, "Work laptop");
    const second = await addPasskey(user.token);
    assert.equal(second.added.body.name, "Passkey 2");
    const long = await addPasskey(user.token, { name: "x".repeat(65) });
    assertError(long.added, 400, "VALIDATION_ERROR");
    const blank = await addPasskey(user.token, { name: "   " });
    assertError(blank.added, 400, "VALIDATION_ERROR");
  });

  it("lists the caller's passkeys, oldest first; renames one; removes one (204)", async () => {
    const user = await signUp(module, uniqueEmail("manage"), PASSWORD);
    const one = (await addPasskey(user.token, { name: "One" })).added.body;
    const two = (await addPasskey(user.token, { name: "Two" })).added.body;
    const listed = await send(module, "GET", "/passkeys", { token: user.token });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body, { passkeys: [one, two] });

    const renamed = await send(module, "PATCH", `/passkeys/${one.id}`, {
      token: user.token,
      body: { name: " YubiKey " },
    });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.deepEqual(renamed.body, { ...one, name: "YubiKey" });
    // Too long, or text PostgreSQL cannot store (U+0000, a lone surrogate): 400, name unchanged.
    for (const name of ["y".repeat(65), "a\u0000b", "key \uD83D"]) {
      assertError(
        await send(module, "PATCH", `/passkeys/${one.id}`, { token: user.token, body: { name } }),
        400,
        "VALIDATION_ERROR",
      );
    }
    const kept = await send(module, "GET", "/passkeys", { token: user.token });
    assert.equal(kept.body.passkeys[0].name, "YubiKey");

    const removed = await send(module, "DELETE", `/passkeys/${one.id}`, { token: user.token });
    assert.equal(removed.status, 204);
    assert.equal(removed.body, null);
    const after = await send(module, "GET", "/passkeys", { token: user.token });
    assert.deepEqual(after.body.passkeys.map((p: any) => p.id), [two.id]);
    assertError(
      await send(module, "DELETE", `/passkeys/${one.id}`, { token: user.token }),
      404,
      "NOT_FOUND",
    );
    assert.equal(await twoFactorFlag(user.user.id), true, "another passkey remains");
    await send(module, "DELETE", `/passkeys/${two.id}`, { token: user.token });
    assert.equal(await twoFactorFlag(user.user.id), false, "no second factor left");
  });

  it("records passkeyAdded and passkeyRemoved, with whether a second factor remains", async () => {
    const user = await signUp(module, uniqueEmail("events"), PASSWORD);
    const first = (await addPasskey(user.token, { name: "First" })).added.body;
    const second = (await addPasskey(user.token, { name: "Second" })).added.body;
    await send(module, "DELETE", `/passkeys/${first.id}`, { token: user.token });
    await send(module, "DELETE", `/passkeys/${second.id}`, { token: user.token });
    await module.api.hooks!.drain();
    const mine = outbox.events.filter((e) => e.payload.user?.id === user.user.id);
    assert.deepEqual(
      mine.map((e) => [e.name, e.payload.passkey.name, e.payload.twoFactorEnabled]),
      [
        ["passkeyAdded", "First", true],
        ["passkeyAdded", "Second", true],
        ["passkeyRemoved", "First", true],
        ["passkeyRemoved", "Second", false],
      ],
    );
    assert.equal(mine[0].payload.passkey.id, first.id);
    assert.equal(mine[0].payload.passkey.deviceType, "singleDevice");
    assert.equal(mine[0].payload.user.email, user.user.email);
    assert.match(mine[0].payload.at, /^\d{4}-\d\d-\d\dT/);
  });

  it("refuses to remove the last way into an account without a password (409 LAST_SIGN_IN_METHOD)", async () => {
    const user = await signUp(module, uniqueEmail("last-way"), PASSWORD);
    const { added } = await addPasskey(user.token);
    await db.query(`UPDATE "passkeys_1".users SET password_hash = '' WHERE id = $1`, [
      user.user.id,
    ]);
    assertError(
      await send(module, "DELETE", `/passkeys/${added.body.id}`, { token: user.token }),
      409,
      "LAST_SIGN_IN_METHOD",
    );
    const listed = await send(module, "GET", "/passkeys", { token: user.token });
    assert.equal(listed.body.passkeys.length, 1, "nothing removed");
    const second = (await addPasskey(user.token)).added.body;
    const removed = await send(module, "DELETE", `/passkeys/${added.body.id}`, {
      token: user.token,
    });
    assert.equal(removed.status, 204, "another passkey remains a way in");
    assertError(
      await send(module, "DELETE", `/passkeys/${second.id}`, { token: user.token }),
      409,
      "LAST_SIGN_IN_METHOD",
    );
  });
});

describe("signing in with a passkey", () => {
  it("answers request options for a discoverable credential, the challenge hashed at rest", async () => {
    const result = await send(module, "POST", "/sign-in/passkey/options");
    assert.equal(result.status, 200, JSON.stringify(result.body));
    assert.deepEqual(Object.keys(result.body).sort(), [
      "allowCredentials",
      "challenge",
      "rpId",
      "timeout",
      "userVerification",
    ]);
    assert.deepEqual(result.body.allowCredentials, []);
    assert.equal(result.body.userVerification, "required");
    assert.equal(result.body.rpId, "app.example.com");
    const [row] = await db.query<{ purpose: string; user_id: string | null }>(
      `SELECT purpose, user_id FROM "passkeys_1".webauthn_challenges WHERE challenge_hash = $1`,
      [hashToken(result.body.challenge)],
    );
    assert.deepEqual({ ...row }, { purpose: "sign-in", user_id: null });
  });

  it("signs in without a password: the credential answer and cookie, the use recorded", async () => {
    const user = await signUp(module, uniqueEmail("passwordless"), PASSWORD);
    const { added, passkey } = await addPasskey(user.token);
    const signedIn = await signInWith(passkey);
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.deepEqual(Object.keys(signedIn.body).sort(), ["expiresAt", "token", "user"]);
    assert.equal(signedIn.body.user.id, user.user.id);
    assert.notEqual(signedIn.body.token, user.token);
    assert.match(signedIn.headers.get("set-cookie") ?? "", /^service_auth=[A-Za-z0-9_-]{43};/);
    const session = await send(module, "GET", "/session", { token: signedIn.body.token });
    assert.equal(session.status, 200);
    assert.equal(session.body.user.email, user.user.email);

    const listed = await send(module, "GET", "/passkeys", { token: signedIn.body.token });
    const [used] = listed.body.passkeys;
    assert.equal(used.id, added.body.id);
    assert.ok(used.lastUsedAt !== null, "last use recorded");
    const [row] = await db.query<{ counter: number }>(
      `SELECT counter::int AS counter FROM "passkeys_1".passkeys WHERE id = $1`,
      [added.body.id],
    );
    assert.equal(row.counter, 1);
    const again = await signInWith(passkey);
    assert.equal(again.status, 200, "the next counter signs in again");
  });

  it("signs in with an authenticator that keeps no counter (always 0), and records a backup", async () => {
    const user = await signUp(module, uniqueEmail("no-counter"), PASSWORD);
    const { passkey } = await addPasskey(user.token);
    for (let i = 0; i < 2; i++) {
      const options = await send(module, "POST", "/sign-in/passkey/options");
      const response = await authenticate(passkey, options.body, {
        origin: ORIGIN,
        counter: 0,
        flags: 0x01 | 0x04 | 0x08 | 0x10,
      });
      const result = await send(module, "POST", "/sign-in/passkey", { body: { response } });
      assert.equal(result.status, 200, JSON.stringify(result.body));
    }
    const listed = await send(module, "GET", "/passkeys", { token: user.token });
    assert.equal(listed.body.passkeys[0].backedUp, true);
  });
});

describe("the relying party", () => {
  it("without publicOrigin: a loopback request's origin, as localhost; any other host 503", async () => {
    const { module: bare } = await passkeyModule({ publicOrigin: undefined });
    const user = await signUp(bare, uniqueEmail("loopback"), PASSWORD);
    const options = async (base: string) => {
      const response = await bare.fetch(
        new Request(`${base}/api/auth/passkeys/registration-options`, {
          method: "POST",
          headers: { authorization: `Bearer ${user.token}` },
        }),
      );
      return { status: response.status, body: await response.json() };
    };
    const local = await options("http://localhost:8000");
    assert.equal(local.status, 200);
    assert.equal(local.body.rp.id, "localhost");
    const ip = await options("http://127.0.0.1:8000");
    assert.equal(ip.status, 200);
    assert.equal(ip.body.rp.id, "localhost", "WebAuthn refuses an IP address as the RP ID");
    const remote = await options("https://evil.example.com");
    assertError(remote as any, 503, "PASSKEYS_UNAVAILABLE");

    // The ceremony completes on http://localhost:8000, the origin such a browser reports.
    const { response } = await register(ip.body, { origin: "http://localhost:8000" });
    const added = await bare.fetch(
      new Request("http://127.0.0.1:8000/api/auth/passkeys", {
        method: "POST",
        headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
        body: JSON.stringify({ response }),
      }),
    );
    assert.equal(added.status, 201, await added.clone().text());
  });

  it("accepts a trusted origin on the relying party's host or a subdomain, no other", async () => {
    const { module: spa } = await passkeyModule({
      publicOrigin: "https://example.com",
      trustedOrigins: ["https://app.example.com", "https://example.org"],
    });
    const user = await signUp(spa, uniqueEmail("spa"), PASSWORD);
    const attempt = async (origin: string) => {
      const options = await send(spa, "POST", "/passkeys/registration-options", {
        token: user.token,
      });
      assert.equal(options.body.rp.id, "example.com");
      const { response } = await register(options.body, { origin });
      return await send(spa, "POST", "/passkeys", { token: user.token, body: { response } });
    };
    assert.equal((await attempt("https://app.example.com")).status, 201);
    assert.equal((await attempt("https://example.com")).status, 201);
    assertError(await attempt("https://example.org"), 400, "INVALID_PASSKEY_RESPONSE");
  });
});

describe("account deletion", () => {
  it("removes the account's passkeys and clears its flag: the passkey no longer signs in", async () => {
    const user = await signUp(module, uniqueEmail("deleted"), PASSWORD);
    const { passkey } = await addPasskey(user.token);
    await send(module, "POST", "/sign-in/passkey/options"); // a pending challenge of nobody's
    const deleted = await send(module, "POST", "/account/delete", {
      token: user.token,
      body: { password: PASSWORD },
    });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    const rows = await db.query(`SELECT 1 FROM "passkeys_1".passkeys WHERE user_id = $1`, [
      user.user.id,
    ]);
    assert.equal(rows.length, 0);
    assert.equal(await twoFactorFlag(user.user.id), false);
    assertError(await signInWith(passkey), 401, "INVALID_PASSKEY");
  });
});

describe("auth.api", () => {
  it("registers, lists, renames, removes and signs in like the routes", async () => {
    const { api } = module;
    const user = await signUp(module, uniqueEmail("api"), PASSWORD);
    const actor = { userId: user.user.id };
    const options = await api.passkeyRegistrationOptions(actor);
    assert.equal(options.rp.id, "app.example.com");
    const { response, passkey } = await register(options, { origin: ORIGIN });
    const added = await api.addPasskey(actor, { response, name: "Server" });
    assert.equal(added.name, "Server");
    assert.deepEqual((await api.listPasskeys(actor)).passkeys, [added]);
    const renamed = await api.renamePasskey(actor, { passkeyId: added.id, name: "Renamed" });
    assert.equal(renamed.name, "Renamed");

    const requestOptions = await api.passkeySignInOptions();
    const assertion = await authenticate(passkey, requestOptions, { origin: ORIGIN });
    const credential = await api.signInWithPasskey({ response: assertion });
    assert.equal(credential.user.id, user.user.id);
    await assert.rejects(
      api.signInWithPasskey({ response: assertion }),
      (error: any) => error.status === 400 && error.code === "INVALID_PASSKEY_CHALLENGE",
    );
    await assert.rejects(
      api.renamePasskey(actor, { passkeyId: added.id, name: "" }),
      (error: any) => error.status === 400 && error.code === "VALIDATION_ERROR",
    );
    await api.removePasskey(actor, { passkeyId: added.id });
    assert.deepEqual((await api.listPasskeys(actor)).passkeys, []);
  });
});
