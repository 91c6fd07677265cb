// deno-lint-ignore-file no-explicit-any
// Sign-in with an OpenID Connect provider (issue 40), against a real one: `oidc-provider`, the
// certified implementation, on 127.0.0.1, driven over HTTP through its login and consent pages by
// a cookie-keeping browser. The whole code flow (authorize, the provider, the callback, /me) and
// the account rules: a new account (verified only when the provider says so), the same account
// again, and no takeover: an address the provider does not assert verified, or an account whose
// address is not verified, is never joined (ACCOUNT_EXISTS), and nothing is created or linked.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { hashToken } from "../../src/auth/sessions/tokens.ts";
import { loginAt } from "../helpers/http_browser.ts";
import { signUp, uniqueEmail } from "./helpers/http.ts";
import { send, tokenOf, waitForMail } from "./helpers/account.ts";
import { verifyEmail } from "./helpers/verification.ts";
import {
  APP,
  AUTHORIZE,
  browserFor,
  CALLBACK,
  countRows,
  errorOf,
  jsonIn,
  meOf,
  oauthWorld,
  signInAs,
} from "./helpers/oauth.ts";

const world = oauthWorld();

describe("sign-in with an OpenID Connect provider (oidc-provider on 127.0.0.1)", () => {
  it("GET /oauth/providers lists the configured providers", async () => {
    const answer = await send(world.module, "GET", "/oauth/providers");
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { providers: [{ id: "acme", name: "Acme SSO" }] });
  });

  it("authorize answers 302 to the provider with PKCE S256, state, nonce and the exact redirect URL; only hashes are stored", async () => {
    const before = await countRows(world, "oauth_states");
    const browser = browserFor(world);
    const answer = await browser.request("GET", `${AUTHORIZE}?redirectTo=/app`);
    assert.equal(answer.status, 302);
    const url = new URL(answer.location!);
    assert.equal(url.origin, world.op.issuer);
    const q = url.searchParams;
    assert.equal(q.get("response_type"), "code");
    assert.equal(q.get("client_id"), world.op.clientId);
    assert.equal(q.get("redirect_uri"), CALLBACK);
    assert.equal(q.get("code_challenge_method"), "S256");
    assert.match(q.get("code_challenge")!, /^[A-Za-z0-9_-]{43}$/);
    assert.match(q.get("state")!, /^[A-Za-z0-9_-]{43}$/);
    assert.match(q.get("nonce")!, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(q.get("scope")!.split(" ").sort(), ["email", "openid", "profile"]);
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith("service_oauth="))!;
    assert.ok(cookie, "the flow's cookie is set");
    const attributes = cookie.split("; ");
    for (const expected of ["HttpOnly", "SameSite=Lax", "Path=/api/auth/oauth", "Max-Age=600"]) {
      assert.ok(attributes.includes(expected), `${expected} in ${cookie}`);
    }
    assert.ok(attributes.includes("Secure"), "Secure on an https publicOrigin");
    const verifier = browser.cookiesOf("app.example.com").get("service_oauth")!;
    assert.equal(await countRows(world, "oauth_states"), before + 1);
    const [row] = await world.db.query<any>(
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
    const { browser, answer } = await signInAs(world, email, { redirectTo: "/app#/welcome" });
    assert.equal(answer.status, 303);
    assert.equal(answer.location, `${APP}/app#/welcome`);
    assert.ok(answer.headers.getSetCookie().some((c) => c.startsWith("service_auth=")));
    assert.ok(answer.headers.getSetCookie().some((c) => /^service_oauth=;.*Max-Age=0/.test(c)));
    assert.equal(answer.headers.get("referrer-policy"), "no-referrer");
    const me = await meOf(browser);
    assert.equal(me.status, 200);
    assert.equal(me.body.user.email, email);
    assert.equal(me.body.user.emailVerified, true);
    const listed = (await jsonIn(browser, "GET", "/identities")).body.identities;
    assert.equal(listed.length, 1);
    assert.equal(listed[0].provider, "acme");
    assert.equal(listed[0].email, email);
    await world.module.api.hooks!.drain();
    const event = world.outbox.events.find((e) =>
      e.name === "identityLinked" && e.payload.user.email === email
    );
    assert.ok(event, "identityLinked recorded");
    assert.equal(event.payload.identity.provider, "acme");
  });

  it("signing out and in again with the provider reaches the same account", async () => {
    const email = uniqueEmail("again");
    const first = await signInAs(world, email);
    const id = (await meOf(first.browser)).body.user.id;
    assert.equal((await jsonIn(first.browser, "POST", "/sign-out")).status, 204);
    assert.equal((await meOf(first.browser)).status, 401);
    // The provider remembers the login: the same browser comes straight back.
    const callback = await loginAt(first.browser, AUTHORIZE, email);
    const again = await first.browser.request("GET", callback);
    assert.equal(errorOf(again), null);
    assert.equal((await meOf(first.browser)).body.user.id, id);
    const [row] = await world.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auth.users WHERE email = $1`,
      [email],
    );
    assert.equal(row.n, 1);
  });

  it("an address the provider does not assert verified makes an unverified account", async () => {
    const email = uniqueEmail("plain");
    const { browser, answer } = await signInAs(world, `unverified.${email}`);
    assert.equal(errorOf(answer), null);
    const me = await meOf(browser);
    assert.equal(me.body.user.email, email);
    assert.equal(me.body.user.emailVerified, false);
  });

  it("an account without a password refuses every password at sign-in (401), like a wrong one", async () => {
    const email = uniqueEmail("nopassword");
    await signInAs(world, email);
    const [row] = await world.db.query<{ password_hash: string }>(
      `SELECT password_hash FROM auth.users WHERE email = $1`,
      [email],
    );
    assert.equal(row.password_hash, "");
    for (const password of ["", "a long enough password"]) {
      const answer = await send(world.module, "POST", "/sign-in", { body: { email, password } });
      assert.ok(answer.status === 401 || answer.status === 400, JSON.stringify(answer.body));
    }
  });
});

describe("no takeover through a provider's address (ACCOUNT_EXISTS)", () => {
  /** Signs in with the provider as `login`; asserts the refusal and that nothing changed. */
  async function refused(login: string, email: string) {
    const identities = await countRows(world, "identities");
    const sessions = await countRows(world, "sessions");
    const { browser, answer } = await signInAs(world, login);
    assert.equal(errorOf(answer), "ACCOUNT_EXISTS");
    assert.ok(!answer.headers.getSetCookie().some((c) => c.startsWith("service_auth=")));
    assert.equal((await meOf(browser)).status, 401);
    assert.equal(await countRows(world, "identities"), identities, "nothing linked");
    assert.equal(await countRows(world, "sessions"), sessions, "no session issued");
    const [row] = await world.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auth.users WHERE email = $1`,
      [email],
    );
    assert.equal(row.n, 1, "no second account");
  }

  it("an unverified provider address naming an existing (verified) account", async () => {
    const victim = await signUp(world.module, uniqueEmail("victim"));
    await verifyEmail(world.module, victim.user.id);
    await refused(`unverified.${victim.user.email}`, victim.user.email);
  });

  it("a verified provider address naming an account whose address is not verified", async () => {
    const squatter = await signUp(world.module, uniqueEmail("squatted"));
    await refused(squatter.user.email, squatter.user.email);
  });

  it("an account a provider made from an unverified address: the mailbox's password reset drops its provider accounts", async () => {
    const email = uniqueEmail("prehijacked");
    // The squatter signs up at a provider that does not verify, with the victim's address …
    const squatter = await signInAs(world, `unverified.${email}`);
    assert.equal(errorOf(squatter.answer), null);
    // … and the victim takes the account back with the forgotten-password mail.
    const mails = world.outbox.resets.length;
    assert.equal(
      (await send(world.module, "POST", "/password/forgot", { body: { email } })).status,
      202,
    );
    const mail = await waitForMail(world.outbox.resets, mails + 1);
    const reset = await send(world.module, "POST", "/password/reset", {
      body: { token: tokenOf(mail.url), password: "the victim's own password" },
    });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal(reset.body.user.emailVerified, true);
    assert.equal((await meOf(squatter.browser)).status, 401, "the squatter's session ended");
    // The squatter's provider account no longer opens it.
    const again = await signInAs(world, `unverified.${email}`);
    assert.equal(errorOf(again.answer), "ACCOUNT_EXISTS");
    await world.module.api.hooks!.drain();
    assert.ok(
      world.outbox.events.some((e) =>
        e.name === "identityUnlinked" && e.payload.user.email === email
      ),
    );
  });

  it("a verified provider address joins the account whose address is verified", async () => {
    const owner = await signUp(world.module, uniqueEmail("owner"));
    await verifyEmail(world.module, owner.user.id);
    const { browser, answer } = await signInAs(world, owner.user.email);
    assert.equal(errorOf(answer), null);
    assert.equal((await meOf(browser)).body.user.id, owner.user.id);
    const listed = (await jsonIn(browser, "GET", "/identities")).body.identities;
    assert.deepEqual(listed.map((i: any) => i.provider), ["acme"]);
  });
});
