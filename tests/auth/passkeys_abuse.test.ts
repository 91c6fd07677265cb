// deno-lint-ignore-file no-explicit-any
// Passkey abuse over HTTP on PGlite, with forged WebAuthn responses from a software authenticator:
// every refusal is a 4xx with its code and issues no credential. Challenges: reused, raced,
// expired, minted for the other ceremony or for another user, unknown; the response: another
// origin, another RP ID, no user verification, a forged signature, another account's user
// handle, an unknown credential, a cloned authenticator (counter regression), malformed JSON and
// unreadable fields; another user's passkey id; registration without a session; a passkey
// registered twice; the rate limit of the anonymous options; the bounded purge of old challenges.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { AuthModule } from "../../src/auth/mod.ts";
import { pgliteAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { assertError, type CallResult, signUp, uniqueEmail } from "./helpers/http.ts";
import { accountModule, send } from "./helpers/account.ts";
import {
  authenticate,
  b64url,
  FLAGS,
  register,
  type SoftwarePasskey,
} from "./helpers/software_authenticator.ts";

const PASSWORD = "correct horse battery";
const ORIGIN = "https://app.example.com";
const NAMESPACE = "passkey_abuse";

let db: SqlAdapter;
let module: AuthModule;

before(async () => {
  db = pgliteAdapter();
  ({ module } = await accountModule(db, { namespace: NAMESPACE }));
});
after(() => db.close());

async function registrationOptions(token: string, target = module): Promise<any> {
  const result = await send(target, "POST", "/passkeys/registration-options", { token });
  assert.equal(result.status, 200, JSON.stringify(result.body));
  return result.body;
}

async function signInOptions(target = module): Promise<any> {
  const result = await send(target, "POST", "/sign-in/passkey/options");
  assert.equal(result.status, 200, JSON.stringify(result.body));
  return result.body;
}

async function postPasskey(token: string, response: unknown): Promise<CallResult> {
  return await send(module, "POST", "/passkeys", { token, body: { response } });
}

async function postSignIn(response: unknown): Promise<CallResult> {
  return await send(module, "POST", "/sign-in/passkey", { body: { response } });
}

/** A user with one registered passkey. */
async function userWithPasskey(label: string) {
  const user = await signUp(module, uniqueEmail(label), PASSWORD);
  const { response, passkey } = await register(await registrationOptions(user.token), {
    origin: ORIGIN,
  });
  const added = await postPasskey(user.token, response);
  assert.equal(added.status, 201, JSON.stringify(added.body));
  return { ...user, passkey, passkeyId: added.body.id as string };
}

/** A refused sign-in: its code, and no cookie. */
function assertRefused(result: CallResult, status: number, code: string): void {
  assertError(result, status, code);
  assert.equal(result.headers.get("set-cookie"), null, "no credential");
}

async function passkeyCount(userId: string): Promise<number> {
  const rows = await db.query(`SELECT 1 FROM "${NAMESPACE}".passkeys WHERE user_id = $1`, [
    userId,
  ]);
  return rows.length;
}

async function storedCounter(passkeyId: string): Promise<number> {
  const [row] = await db.query<{ counter: number }>(
    `SELECT counter::int AS counter FROM "${NAMESPACE}".passkeys WHERE id = $1`,
    [passkeyId],
  );
  return row.counter;
}

describe("challenges", () => {
  it("a sign-in challenge answers once: the same response again is 400", async () => {
    const { passkey } = await userWithPasskey("reuse");
    const response = await authenticate(passkey, await signInOptions(), { origin: ORIGIN });
    assert.equal((await postSignIn(response)).status, 200);
    assertRefused(await postSignIn(response), 400, "INVALID_PASSKEY_CHALLENGE");
  });

  it("a registration challenge answers once", async () => {
    const user = await signUp(module, uniqueEmail("reuse-registration"), PASSWORD);
    const options = await registrationOptions(user.token);
    const first = await register(options, { origin: ORIGIN });
    assert.equal((await postPasskey(user.token, first.response)).status, 201);
    const second = await register(options, { origin: ORIGIN });
    assertError(await postPasskey(user.token, second.response), 400, "INVALID_PASSKEY_CHALLENGE");
    assert.equal(await passkeyCount(user.user.id), 1);
  });

  it("two racing uses of one challenge: exactly one signs in", async () => {
    const { passkey } = await userWithPasskey("race");
    const options = await signInOptions();
    const one = await authenticate(passkey, options, { origin: ORIGIN });
    const two = await authenticate(passkey, options, { origin: ORIGIN });
    const results = await Promise.all([postSignIn(one), postSignIn(two)]);
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 400]);
  });

  it("an expired challenge is 410, and is used up by the attempt", async () => {
    const { passkey } = await userWithPasskey("expired");
    const options = await signInOptions();
    await db.query(
      `UPDATE "${NAMESPACE}".webauthn_challenges SET expires_at = now() - interval '1 second'
       WHERE purpose = 'sign-in'`,
    );
    const response = await authenticate(passkey, options, { origin: ORIGIN });
    assertRefused(await postSignIn(response), 410, "PASSKEY_CHALLENGE_EXPIRED");
    assertRefused(await postSignIn(response), 400, "INVALID_PASSKEY_CHALLENGE");

    const user = await signUp(module, uniqueEmail("expired-registration"), PASSWORD);
    const creation = await registrationOptions(user.token);
    await db.query(
      `UPDATE "${NAMESPACE}".webauthn_challenges SET expires_at = now() - interval '1 second'
       WHERE user_id = $1`,
      [user.user.id],
    );
    const { response: late } = await register(creation, { origin: ORIGIN });
    assertError(await postPasskey(user.token, late), 410, "PASSKEY_CHALLENGE_EXPIRED");
    assert.equal(await passkeyCount(user.user.id), 0);
  });

  it("a challenge minted for the other ceremony is refused, and stays for its own", async () => {
    const { token, passkey, user } = await userWithPasskey("purpose");
    // A sign-in challenge in a registration.
    const signIn = await signInOptions();
    const asRegistration = await register(
      { ...signIn, rp: { id: signIn.rpId }, user: { id: b64url(user.id) } },
      { origin: ORIGIN },
    );
    assertError(
      await postPasskey(token, asRegistration.response),
      400,
      "INVALID_PASSKEY_CHALLENGE",
    );
    const response = await authenticate(passkey, signIn, { origin: ORIGIN });
    assert.equal((await postSignIn(response)).status, 200, "still good for a sign-in");

    // A registration challenge in a sign-in.
    const creation = await registrationOptions(token);
    const asSignIn = await authenticate(passkey, {
      challenge: creation.challenge,
      rpId: creation.rp.id,
    }, {
      origin: ORIGIN,
    });
    assertRefused(await postSignIn(asSignIn), 400, "INVALID_PASSKEY_CHALLENGE");
    const { response: registration } = await register(creation, { origin: ORIGIN });
    assert.equal((await postPasskey(token, registration)).status, 201, "still good for its user");
  });

  it("a registration challenge of another user is refused", async () => {
    const victim = await signUp(module, uniqueEmail("victim"), PASSWORD);
    const attacker = await signUp(module, uniqueEmail("attacker"), PASSWORD);
    const options = await registrationOptions(victim.token);
    const { response } = await register(options, { origin: ORIGIN });
    assertError(await postPasskey(attacker.token, response), 400, "INVALID_PASSKEY_CHALLENGE");
    assert.equal(await passkeyCount(attacker.user.id), 0);
    assert.equal(await passkeyCount(victim.user.id), 0);
  });

  it("a challenge this module never issued, or the client data's type of the other ceremony, is refused", async () => {
    const { passkey } = await userWithPasskey("unknown-challenge");
    const options = await signInOptions();
    const madeUp = await authenticate(passkey, options, {
      origin: ORIGIN,
      challenge: b64url(crypto.getRandomValues(new Uint8Array(32))),
    });
    assertRefused(await postSignIn(madeUp), 400, "INVALID_PASSKEY_CHALLENGE");
    const wrongType = await authenticate(passkey, options, {
      origin: ORIGIN,
      type: "webauthn.create",
    });
    assertRefused(await postSignIn(wrongType), 401, "INVALID_PASSKEY");
  });
});

describe("forged responses", () => {
  it("another origin: registration 400, sign-in 401", async () => {
    const user = await signUp(module, uniqueEmail("origin"), PASSWORD);
    const { response } = await register(await registrationOptions(user.token), {
      origin: "https://evil.example",
    });
    assertError(await postPasskey(user.token, response), 400, "INVALID_PASSKEY_RESPONSE");
    assert.equal(await passkeyCount(user.user.id), 0);

    const { passkey } = await userWithPasskey("origin-sign-in");
    const assertion = await authenticate(passkey, await signInOptions(), {
      origin: "https://app.example.com.evil.example",
    });
    assertRefused(await postSignIn(assertion), 401, "INVALID_PASSKEY");
  });

  it("another RP ID (its hash in the authenticator data): registration 400, sign-in 401", async () => {
    const user = await signUp(module, uniqueEmail("rpid"), PASSWORD);
    const { response } = await register(await registrationOptions(user.token), {
      origin: ORIGIN,
      rpId: "evil.example",
    });
    assertError(await postPasskey(user.token, response), 400, "INVALID_PASSKEY_RESPONSE");

    const { passkey } = await userWithPasskey("rpid-sign-in");
    const assertion = await authenticate(passkey, await signInOptions(), {
      origin: ORIGIN,
      rpId: "example.com",
    });
    assertRefused(await postSignIn(assertion), 401, "INVALID_PASSKEY");
  });

  it("no user verification flag: registration 400, sign-in 401", async () => {
    const user = await signUp(module, uniqueEmail("uv"), PASSWORD);
    const { response } = await register(await registrationOptions(user.token), {
      origin: ORIGIN,
      flags: FLAGS.UP | FLAGS.AT,
    });
    const refused = await postPasskey(user.token, response);
    assertError(refused, 400, "INVALID_PASSKEY_RESPONSE");
    assert.match(refused.body.error.message, /verification/i);

    const { passkey } = await userWithPasskey("uv-sign-in");
    const assertion = await authenticate(passkey, await signInOptions(), {
      origin: ORIGIN,
      flags: FLAGS.UP,
    });
    assertRefused(await postSignIn(assertion), 401, "INVALID_PASSKEY");
  });

  it("a signature by another key, or another account's user handle: 401", async () => {
    const { passkey } = await userWithPasskey("forged");
    const other = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, [
      "sign",
      "verify",
    ]) as CryptoKeyPair;
    const forged = await authenticate(passkey, await signInOptions(), {
      origin: ORIGIN,
      signWith: other.privateKey,
    });
    assertRefused(await postSignIn(forged), 401, "INVALID_PASSKEY");
    const stranger = await signUp(module, uniqueEmail("stranger"), PASSWORD);
    const handle = await authenticate(passkey, await signInOptions(), {
      origin: ORIGIN,
      userHandle: b64url(stranger.user.id),
    });
    assertRefused(await postSignIn(handle), 401, "INVALID_PASSKEY");
    const without = await authenticate(passkey, await signInOptions(), {
      origin: ORIGIN,
      userHandle: null,
    });
    assert.equal((await postSignIn(without)).status, 200, "the handle is optional");
  });

  it("an unknown credential id: 401 INVALID_PASSKEY", async () => {
    const { passkey } = await userWithPasskey("unknown");
    const stranger: SoftwarePasskey = {
      ...passkey,
      id: b64url(crypto.getRandomValues(new Uint8Array(16))),
    };
    const assertion = await authenticate(stranger, await signInOptions(), { origin: ORIGIN });
    assertRefused(await postSignIn(assertion), 401, "INVALID_PASSKEY");
  });

  it("a cloned authenticator: a counter that does not increase is 401 PASSKEY_CLONED", async () => {
    const { passkey, passkeyId } = await userWithPasskey("clone");
    const first = await authenticate(passkey, await signInOptions(), {
      origin: ORIGIN,
      counter: 5,
    });
    assert.equal((await postSignIn(first)).status, 200);
    assert.equal(await storedCounter(passkeyId), 5);
    for (const counter of [5, 3, 0]) {
      const copy = await authenticate(passkey, await signInOptions(), { origin: ORIGIN, counter });
      assertRefused(await postSignIn(copy), 401, "PASSKEY_CLONED");
    }
    assert.equal(await storedCounter(passkeyId), 5, "the counter never moves back");
    const next = await authenticate(passkey, await signInOptions(), { origin: ORIGIN, counter: 6 });
    assert.equal((await postSignIn(next)).status, 200, "the original still signs in");
  });

  it("a credential id registered already, to the same or another account: 409 PASSKEY_EXISTS", async () => {
    const owner = await userWithPasskey("twice");
    const attacker = await signUp(module, uniqueEmail("twice-attacker"), PASSWORD);
    const credentialId = new Uint8Array(Buffer.from(owner.passkey.id, "base64url"));
    for (const user of [owner, attacker]) {
      const { response } = await register(await registrationOptions(user.token), {
        origin: ORIGIN,
        credentialId,
      });
      assertError(await postPasskey(user.token, response), 409, "PASSKEY_EXISTS");
    }
    assert.equal(await passkeyCount(attacker.user.id), 0);
    assert.equal(await passkeyCount(owner.user.id), 1);
    const assertion = await authenticate(owner.passkey, await signInOptions(), { origin: ORIGIN });
    assert.equal((await postSignIn(assertion)).status, 200, "the owner's key is the one kept");
  });

  it("a response naming another credential id than its authenticator data carries: 400", async () => {
    const owner = await userWithPasskey("mismatch");
    const user = await signUp(module, uniqueEmail("mismatch-other"), PASSWORD);
    const { response } = await register(await registrationOptions(user.token), {
      origin: ORIGIN,
      id: owner.passkey.id,
    });
    assertError(await postPasskey(user.token, response), 400, "INVALID_PASSKEY_RESPONSE");
    assert.equal(await passkeyCount(user.user.id), 0);
  });
});

describe("malformed requests", () => {
  it("malformed JSON, fields of the wrong shape, unreadable client data or attestation: 400", async () => {
    const user = await signUp(module, uniqueEmail("malformed"), PASSWORD);
    const raw = await module.fetch(
      new Request(`${ORIGIN}/api/auth/sign-in/passkey`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"response": {',
      }),
    );
    assert.equal(raw.status, 400);
    assert.equal((await raw.json()).error.code, "INVALID_JSON");

    const { response } = await register(await registrationOptions(user.token), { origin: ORIGIN });
    const cases: [unknown, number, string][] = [
      [{ ...response, id: "not base64url!" }, 400, "VALIDATION_ERROR"],
      [{ ...response, type: "password" }, 400, "VALIDATION_ERROR"],
      [
        { ...response, response: { ...response.response, clientDataJSON: undefined } },
        400,
        "VALIDATION_ERROR",
      ],
      [
        { ...response, response: { ...response.response, clientDataJSON: b64url("{{") } },
        400,
        "INVALID_PASSKEY_RESPONSE",
      ],
      [
        { ...response, response: { ...response.response, clientDataJSON: b64url("null") } },
        400,
        "INVALID_PASSKEY_RESPONSE",
      ],
      ["a string", 400, "VALIDATION_ERROR"],
      // Transports are stored as text: what PostgreSQL cannot store is refused, not a 500.
      [
        { ...response, response: { ...response.response, transports: ["usb\u0000"] } },
        400,
        "VALIDATION_ERROR",
      ],
      [
        { ...response, response: { ...response.response, transports: ["\uDC00"] } },
        400,
        "VALIDATION_ERROR",
      ],
    ];
    for (const [body, status, code] of cases) {
      assertError(await postPasskey(user.token, body), status, code);
    }
    // A live challenge, then an attestation object that is not CBOR.
    const options = await registrationOptions(user.token);
    const fresh = await register(options, { origin: ORIGIN });
    const garbage = {
      ...fresh.response,
      response: { ...fresh.response.response, attestationObject: b64url("not cbor at all") },
    };
    assertError(await postPasskey(user.token, garbage), 400, "INVALID_PASSKEY_RESPONSE");

    const { passkey } = await userWithPasskey("malformed-sign-in");
    const assertion = await authenticate(passkey, await signInOptions(), { origin: ORIGIN });
    const signInCases: [unknown, number, string][] = [
      [
        { ...assertion, response: { ...assertion.response, signature: "%%%" } },
        400,
        "VALIDATION_ERROR",
      ],
      [
        { ...assertion, response: { ...assertion.response, clientDataJSON: b64url("[]") } },
        400,
        "INVALID_PASSKEY_RESPONSE",
      ],
      [
        { ...assertion, response: { ...assertion.response, authenticatorData: b64url("short") } },
        401,
        "INVALID_PASSKEY",
      ],
    ];
    for (const [body, status, code] of signInCases) {
      assertRefused(await postSignIn(body), status, code);
    }
  });
});

describe("access", () => {
  it("another user's passkey id on PATCH and DELETE is 404, and the passkey stays", async () => {
    const owner = await userWithPasskey("owner");
    const intruder = await signUp(module, uniqueEmail("intruder"), PASSWORD);
    const renamed = await send(module, "PATCH", `/passkeys/${owner.passkeyId}`, {
      token: intruder.token,
      body: { name: "mine now" },
    });
    assertError(renamed, 404, "NOT_FOUND");
    const removed = await send(module, "DELETE", `/passkeys/${owner.passkeyId}`, {
      token: intruder.token,
    });
    assertError(removed, 404, "NOT_FOUND");
    const unknown = await send(module, "DELETE", `/passkeys/${crypto.randomUUID()}`, {
      token: intruder.token,
    });
    assert.deepEqual(unknown.body, removed.body, "the same answer as for an unknown id");
    assertError(
      await send(module, "PATCH", "/passkeys/not-a-uuid", {
        token: owner.token,
        body: { name: "x" },
      }),
      404,
      "NOT_FOUND",
    );
    const listed = await send(module, "GET", "/passkeys", { token: owner.token });
    assert.deepEqual(listed.body.passkeys.map((p: any) => [p.id, p.name]), [
      [owner.passkeyId, "Passkey 1"],
    ]);
    const theirs = await send(module, "GET", "/passkeys", { token: intruder.token });
    assert.deepEqual(theirs.body.passkeys, []);
  });

  it("registration and the passkey list need a session (401)", async () => {
    const owner = await userWithPasskey("no-session");
    for (
      const [method, path] of [
        ["POST", "/passkeys/registration-options"],
        ["POST", "/passkeys"],
        ["GET", "/passkeys"],
        ["PATCH", `/passkeys/${owner.passkeyId}`],
        ["DELETE", `/passkeys/${owner.passkeyId}`],
      ]
    ) {
      const result = await send(module, method, path, {
        body: method === "POST" || method === "PATCH" ? { name: "x", response: {} } : undefined,
      });
      assertError(result, 401, "UNAUTHENTICATED");
    }
    assert.equal(await passkeyCount(owner.user.id), 1);
  });

  it("a cross-site sign-in is refused before any check (login CSRF)", async () => {
    const { passkey } = await userWithPasskey("csrf");
    const assertion = await authenticate(passkey, await signInOptions(), { origin: ORIGIN });
    const result = await send(module, "POST", "/sign-in/passkey", {
      body: { response: assertion },
      origin: "https://evil.example",
    });
    assertRefused(result, 403, "CSRF_REJECTED");
  });
});

describe("limits", () => {
  it("limits the anonymous options and sign-ins per client address (429 RATE_LIMITED)", async () => {
    const { module: limited } = await accountModule(db, {
      namespace: "passkey_limits",
      rateLimit: { max: 2, perAccount: false },
    });
    const from = (remoteAddress: string) =>
      send(limited, "POST", "/sign-in/passkey/options", { remoteAddress });
    assert.equal((await from("192.0.2.1")).status, 200);
    assert.equal((await from("192.0.2.1")).status, 200);
    const refused = await from("192.0.2.1");
    assertError(refused, 429, "RATE_LIMITED");
    assert.ok(Number(refused.headers.get("retry-after")) >= 1);
    assert.equal((await from("192.0.2.2")).status, 200, "another address has its own");
    const rows = await db.query(`SELECT 1 FROM passkey_limits.webauthn_challenges`);
    assert.equal(rows.length, 3, "the refused request stored nothing");

    // Sign-ins are counted per address too (these answer no challenge: 400 until the limit).
    const key = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, [
      "sign",
      "verify",
    ]) as CryptoKeyPair;
    const stranger: SoftwarePasskey = {
      id: "c3RyYW5nZXI",
      keys: key,
      userHandle: "eA",
      counter: 0,
    };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await authenticate(stranger, {
        challenge: b64url(crypto.getRandomValues(new Uint8Array(32))),
        rpId: "app.example.com",
      }, { origin: ORIGIN });
      const result = await send(limited, "POST", "/sign-in/passkey", {
        body: { response },
        remoteAddress: "192.0.2.3",
      });
      statuses.push(result.status);
    }
    assert.deepEqual(statuses, [400, 400, 429]);
  });

  it("purges expired challenges in bounded batches as new ones are issued", async () => {
    const { module: purging } = await accountModule(db, { namespace: "passkey_purge" });
    await db.query(
      `INSERT INTO passkey_purge.webauthn_challenges (challenge_hash, purpose, expires_at)
       SELECT 'old-' || n, 'sign-in', now() - interval '2 hours' - n * interval '1 second'
       FROM generate_series(1, 150) AS n`,
    );
    await db.query(
      `INSERT INTO passkey_purge.webauthn_challenges (challenge_hash, purpose, expires_at)
       VALUES ('recent', 'sign-in', now() - interval '1 minute')`,
    );
    const count = async () =>
      Number(
        (await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM passkey_purge.webauthn_challenges
           WHERE challenge_hash LIKE 'old-%'`,
        ))[0].n,
      );
    await send(purging, "POST", "/sign-in/passkey/options");
    assert.equal(await count(), 50, "100 at a time, the oldest first");
    await send(purging, "POST", "/sign-in/passkey/options");
    assert.equal(await count(), 0);
    const recent = await db.query(
      `SELECT 1 FROM passkey_purge.webauthn_challenges WHERE challenge_hash = 'recent'`,
    );
    assert.equal(recent.length, 1, "a just-expired one stays, to be told apart (410)");
  });

  it("keeps one pending registration challenge per account", async () => {
    const user = await signUp(module, uniqueEmail("one-pending"), PASSWORD);
    const first = await registrationOptions(user.token);
    await registrationOptions(user.token);
    const rows = await db.query(
      `SELECT 1 FROM "${NAMESPACE}".webauthn_challenges WHERE user_id = $1`,
      [user.user.id],
    );
    assert.equal(rows.length, 1);
    const { response } = await register(first, { origin: ORIGIN });
    assertError(await postPasskey(user.token, response), 400, "INVALID_PASSKEY_CHALLENGE");
  });
});
