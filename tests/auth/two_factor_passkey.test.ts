// deno-lint-ignore-file no-explicit-any
// A passkey answering the second step of a sign-in, over HTTP on PGlite with real WebAuthn
// responses from a software authenticator: the request options bound to the sign-in's challenge
// (the account's passkeys in allowCredentials), the answer that issues the credential, and the
// abuse cases (another user's passkey, a WebAuthn challenge of another ceremony or another
// sign-in, options for an account without a passkey, a refused passkey spending an attempt).
// Also: removing the last factor while an organization requires one records the loss there.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import type { AuthModule } from "../../src/auth/mod.ts";
import { pgliteAdapter, type SqlAdapter } from "../../src/sql/mod.ts";
import { assertError, signUp, uniqueEmail } from "./helpers/http.ts";
import { accountModule, send } from "./helpers/account.ts";
import { authenticate, register, type SoftwarePasskey } from "./helpers/software_authenticator.ts";

const PASSWORD = "correct horse battery";
const ORIGIN = "https://app.example.com";
const NAMESPACE = "two_factor_passkey";

let db: SqlAdapter;
let module: AuthModule;

before(async () => {
  db = pgliteAdapter();
  ({ module } = await accountModule(db, { namespace: NAMESPACE }));
});
after(() => db.close());

/** A new account with a passkey: its address, token and software passkey. */
async function userWithPasskey(label: string) {
  const email = uniqueEmail(label);
  const user = await signUp(module, email, PASSWORD);
  const options = await send(module, "POST", "/passkeys/registration-options", {
    token: user.token,
  });
  const { response, passkey } = await register(options.body, { origin: ORIGIN });
  const added = await send(module, "POST", "/passkeys", { token: user.token, body: { response } });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  return { email, token: user.token, userId: user.user.id, passkey, passkeyId: added.body.id };
}

/** A password sign-in of a user with a second factor: its challenge. */
async function challengeOf(email: string): Promise<{ challenge: string; methods: string[] }> {
  const first = await send(module, "POST", "/sign-in", { body: { email, password: PASSWORD } });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.twoFactorRequired, true);
  return first.body;
}

async function passkeyOptions(challenge: string) {
  return await send(module, "POST", "/sign-in/two-factor/passkey-options", {
    body: { challenge },
  });
}

async function answerWith(passkey: SoftwarePasskey, challenge: string, webauthnChallenge: any) {
  const response = await authenticate(passkey, webauthnChallenge, { origin: ORIGIN });
  return await send(module, "POST", "/sign-in/two-factor", {
    body: { challenge, passkey: response },
  });
}

describe("a passkey answering the second step", () => {
  it("lists passkey among the methods, hands out options bound to the sign-in, and signs in", async () => {
    const ada = await userWithPasskey("tf-passkey");
    const { challenge, methods } = await challengeOf(ada.email);
    assert.ok(methods.includes("passkey"), JSON.stringify(methods));
    const options = await passkeyOptions(challenge);
    assert.equal(options.status, 200, JSON.stringify(options.body));
    assert.equal(options.body.rpId, "app.example.com");
    assert.equal(options.body.userVerification, "required");
    assert.deepEqual(
      options.body.allowCredentials.map((c: { id: string }) => c.id),
      [ada.passkey.id],
    );
    const answered = await answerWith(ada.passkey, challenge, options.body);
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    assert.equal(answered.body.user.id, ada.userId);
    assert.match(answered.headers.get("set-cookie") ?? "", /service_auth=/);
    const me = await send(module, "GET", "/me", { token: answered.body.token });
    assert.equal(me.status, 200);
    // The sign-in's challenge is used up.
    assertError(await passkeyOptions(challenge), 400, "INVALID_TWO_FACTOR_CHALLENGE");
  });

  it("refuses another user's passkey, spending an attempt and issuing nothing", async () => {
    const ada = await userWithPasskey("tf-victim");
    const eve = await userWithPasskey("tf-attacker");
    const { challenge } = await challengeOf(ada.email);
    const options = await passkeyOptions(challenge);
    const answered = await answerWith(eve.passkey, challenge, options.body);
    assertError(answered, 401, "INVALID_PASSKEY");
    assert.equal(answered.headers.get("set-cookie"), null);
    const [row] = await db.query<{ attempts: number }>(
      `SELECT attempts FROM "${NAMESPACE}".two_factor_challenges WHERE user_id = $1`,
      [ada.userId],
    );
    assert.equal(row.attempts, 1);
    // The owner's passkey still answers, with fresh options.
    const again = await passkeyOptions(challenge);
    assert.equal((await answerWith(ada.passkey, challenge, again.body)).status, 200);
  });

  it("refuses a WebAuthn challenge of the passwordless sign-in, and one of another sign-in", async () => {
    const ada = await userWithPasskey("tf-crossed");
    const { challenge } = await challengeOf(ada.email);
    const passwordless = await send(module, "POST", "/sign-in/passkey/options");
    assertError(
      await answerWith(ada.passkey, challenge, passwordless.body),
      400,
      "INVALID_PASSKEY_CHALLENGE",
    );
    const other = await challengeOf(ada.email);
    const otherOptions = await passkeyOptions(other.challenge);
    assertError(
      await answerWith(ada.passkey, challenge, otherOptions.body),
      400,
      "INVALID_PASSKEY_CHALLENGE",
    );
    // The misdirected answer consumed nothing: the other sign-in still completes with its own.
    assert.equal((await answerWith(ada.passkey, other.challenge, otherOptions.body)).status, 200);
  });

  it("ends the challenge when a refused passkey spends its last attempt", async () => {
    const ada = await userWithPasskey("tf-last");
    const eve = await userWithPasskey("tf-last-attacker");
    const { challenge } = await challengeOf(ada.email);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const options = await passkeyOptions(challenge);
      assert.equal(options.status, 200, `attempt ${attempt}: ${JSON.stringify(options.body)}`);
      assertError(await answerWith(eve.passkey, challenge, options.body), 401, "INVALID_PASSKEY");
    }
    assertError(await passkeyOptions(challenge), 400, "INVALID_TWO_FACTOR_CHALLENGE");
  });

  it("answers no options for an unknown challenge or an account without a passkey", async () => {
    assertError(await passkeyOptions("x".repeat(43)), 400, "INVALID_TWO_FACTOR_CHALLENGE");
    const ada = await userWithPasskey("tf-removed");
    const { challenge } = await challengeOf(ada.email);
    // The passkey goes (the password stays a way in) while the sign-in waits.
    const removed = await send(module, "DELETE", `/passkeys/${ada.passkeyId}`, {
      token: ada.token,
    });
    assert.equal(removed.status, 204, JSON.stringify(removed.body));
    assertError(await passkeyOptions(challenge), 401, "INVALID_PASSKEY");
  });
});

describe("losing the last factor in an organization that requires one", () => {
  it("records memberSecondFactorLost in that organization when the last passkey goes", async () => {
    const ada = await userWithPasskey("tf-org");
    const created = await send(module, "POST", "/organizations", {
      token: ada.token,
      body: { name: "Strict" },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const organizationId = created.body.organization.id;
    const required = await send(module, "PATCH", `/organizations/${organizationId}`, {
      token: ada.token,
      body: { requireTwoFactor: true },
    });
    assert.equal(required.status, 200, JSON.stringify(required.body));
    const removed = await send(module, "DELETE", `/passkeys/${ada.passkeyId}`, {
      token: ada.token,
    });
    assert.equal(removed.status, 204, JSON.stringify(removed.body));
    const entries = await db.query<{ action: string }>(
      `SELECT action FROM "${NAMESPACE}".organization_audit_log
       WHERE organization_id = $1 AND action = 'memberSecondFactorLost'`,
      [organizationId],
    );
    assert.equal(entries.length, 1);
    assertError(
      await send(module, "GET", `/organizations/${organizationId}/members`, { token: ada.token }),
      403,
      "TWO_FACTOR_REQUIRED",
    );
  });
});
