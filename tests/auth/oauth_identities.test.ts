// deno-lint-ignore-file no-explicit-any
// Connected accounts (issue 40): connecting a provider to the signed-in account
// (`POST /oauth/:provider/link`, then the provider, then the callback), listing and disconnecting
// them (`GET /identities`, `DELETE /identities/:identityId`), against a real OpenID Provider
// (`oidc-provider` on 127.0.0.1). The abuse cases first: a connection completed in another
// session or another browser (link CSRF), a provider account connected to someone else, another
// user's identity, and never disconnecting the last way in (LAST_SIGN_IN_METHOD); a password
// (set through the forgot-password flow) or a Telegram account counts as a way in.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { HttpBrowser } from "../helpers/http_browser.ts";
import { loginAt } from "../helpers/http_browser.ts";
import { uniqueEmail } from "./helpers/http.ts";
import { tokenOf, waitForMail } from "./helpers/account.ts";
import {
  browserFor,
  countRows,
  errorOf,
  jsonIn,
  meOf,
  oauthWorld,
  signInAs,
} from "./helpers/oauth.ts";

const world = oauthWorld({
  telegram: {
    botToken: "7000000001:AAH-telegram_test_token_0123456789ab",
    botUsername: "oauth_bot",
  },
});

/** A browser signed up with a password. */
async function passwordUser(
  label: string,
): Promise<{ browser: HttpBrowser; id: string; email: string }> {
  const browser = browserFor(world);
  const email = uniqueEmail(label);
  const answer = await jsonIn(browser, "POST", "/sign-up", {
    email,
    password: "correct horse battery",
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return { browser, id: answer.body.user.id, email };
}

/**
 * Connects the provider account `login` in `browser` (logged out at the provider first, so that
 * it asks who); the callback's answer.
 */
async function connect(browser: HttpBrowser, login: string, redirectTo = "/account") {
  browser.cookiesOf("127.0.0.1").clear();
  const started = await jsonIn(browser, "POST", "/oauth/acme/link", { redirectTo });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  assert.deepEqual(Object.keys(started.body), ["url"]);
  assert.ok(started.headers.getSetCookie().some((c) => c.startsWith("service_oauth=")));
  const callback = await loginAt(browser, started.body.url, login);
  return await browser.request("GET", callback);
}

async function identitiesOf(browser: HttpBrowser): Promise<any[]> {
  const answer = await jsonIn(browser, "GET", "/identities");
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.identities;
}

describe("connecting a provider to the signed-in account", () => {
  it("links the provider account to the caller (identityLinked), whatever its address", async () => {
    const { browser, id } = await passwordUser("linker");
    const other = uniqueEmail("elsewhere");
    const answer = await connect(browser, other);
    assert.equal(errorOf(answer), null);
    assert.equal(new URL(answer.location!).pathname, "/account");
    const listed = await identitiesOf(browser);
    assert.equal(listed.length, 1);
    assert.deepEqual(Object.keys(listed[0]).sort(), ["createdAt", "email", "id", "provider"]);
    assert.equal(listed[0].email, other);
    assert.equal((await meOf(browser)).body.user.id, id, "still the same session and user");
    await world.module.api.hooks!.drain();
    assert.ok(
      world.outbox.events.some((e) =>
        e.name === "identityLinked" && e.payload.user.id === id &&
        e.payload.identity.email === other
      ),
    );
    // Signing in with that provider account now reaches this user.
    const again = await signInAs(world, other);
    assert.equal((await meOf(again.browser)).body.user.id, id);
  });

  it("needs a credential (401) and an origin check (403 from another site)", async () => {
    const anonymous = await jsonIn(browserFor(world), "POST", "/oauth/acme/link", {});
    assert.equal(anonymous.status, 401);
    const { browser } = await passwordUser("csrf");
    const cookie = [...browser.cookiesOf("app.example.com")].map(([n, v]) => `${n}=${v}`).join(
      "; ",
    );
    const crossSite = await world.module.fetch(
      new Request("https://app.example.com/api/auth/oauth/acme/link", {
        method: "POST",
        headers: { cookie, origin: "https://evil.example", "content-type": "application/json" },
        body: "{}",
      }),
    );
    assert.equal(crossSite.status, 403);
    assert.equal((await crossSite.json()).error.code, "CSRF_REJECTED");
  });

  it("link CSRF: a connection completed in another session of the browser links nothing", async () => {
    const { browser, id: aliceId } = await passwordUser("alice");
    const started = await jsonIn(browser, "POST", "/oauth/acme/link", {});
    const callback = await loginAt(browser, started.body.url, uniqueEmail("alice-idp"));
    // Bob signs in on the same browser (Alice's session lives on elsewhere), which still holds
    // the flow's cookie.
    const bobEmail = uniqueEmail("bob");
    await jsonIn(browser, "POST", "/sign-up", {
      email: bobEmail,
      password: "correct horse battery",
    });
    const identities = await countRows(world, "identities");
    const answer = await browser.request("GET", callback);
    assert.equal(errorOf(answer), "LINK_SESSION_MISMATCH");
    assert.equal(await countRows(world, "identities"), identities);
    assert.deepEqual(await identitiesOf(browser), [], "nothing linked to Bob");
    const [row] = await world.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM auth.identities WHERE user_id = $1`,
      [aliceId],
    );
    assert.equal(row.n, 0, "nothing linked to Alice");
  });

  it("signing out abandons a pending connection (the flow goes with the session)", async () => {
    const { browser } = await passwordUser("leaver");
    const started = await jsonIn(browser, "POST", "/oauth/acme/link", {});
    const callback = await loginAt(browser, started.body.url, uniqueEmail("leaver-idp"));
    await jsonIn(browser, "POST", "/sign-out");
    const identities = await countRows(world, "identities");
    assert.equal(errorOf(await browser.request("GET", callback)), "INVALID_OAUTH_STATE");
    assert.equal(await countRows(world, "identities"), identities);
  });

  it("link CSRF: the attacker's connection completed in the victim's browser is refused", async () => {
    const attacker = await passwordUser("attacker");
    const victim = await passwordUser("victim");
    const started = await jsonIn(attacker.browser, "POST", "/oauth/acme/link", {});
    const callback = await loginAt(attacker.browser, started.body.url, uniqueEmail("attacker-idp"));
    const answer = await victim.browser.request("GET", callback);
    assert.equal(errorOf(answer), "INVALID_OAUTH_STATE");
    assert.deepEqual(await identitiesOf(victim.browser), []);
  });

  it("a provider account connected to someone else: IDENTITY_TAKEN, nothing moves", async () => {
    const owned = uniqueEmail("owned");
    const owner = await signInAs(world, owned);
    const ownerId = (await meOf(owner.browser)).body.user.id;
    const { browser } = await passwordUser("thief");
    const answer = await connect(browser, owned);
    assert.equal(errorOf(answer), "IDENTITY_TAKEN");
    assert.deepEqual(await identitiesOf(browser), []);
    assert.equal((await identitiesOf(owner.browser)).length, 1);
    assert.equal((await meOf(owner.browser)).body.user.id, ownerId);
  });

  it("connecting the same provider account again keeps one identity", async () => {
    const { browser } = await passwordUser("twice");
    const login = uniqueEmail("twice-idp");
    assert.equal(errorOf(await connect(browser, login)), null);
    assert.equal(errorOf(await connect(browser, login)), null);
    assert.equal((await identitiesOf(browser)).length, 1);
  });
});

describe("disconnecting (DELETE /identities/:identityId)", () => {
  it("never the last way in: 409 LAST_SIGN_IN_METHOD for a provider-only account", async () => {
    const { browser } = await signInAs(world, uniqueEmail("only"));
    const [only] = await identitiesOf(browser);
    const answer = await jsonIn(browser, "DELETE", `/identities/${only.id}`);
    assert.equal(answer.status, 409);
    assert.equal(answer.body.error.code, "LAST_SIGN_IN_METHOD");
    assert.equal((await identitiesOf(browser)).length, 1);
  });

  it("another connected provider account counts: one goes (identityUnlinked), not the last", async () => {
    const { browser } = await signInAs(world, uniqueEmail("two"));
    assert.equal(errorOf(await connect(browser, uniqueEmail("second"))), null);
    const [first, second] = await identitiesOf(browser);
    assert.equal((await jsonIn(browser, "DELETE", `/identities/${first.id}`)).status, 204);
    assert.deepEqual((await identitiesOf(browser)).map((i) => i.id), [second.id]);
    await world.module.api.hooks!.drain();
    assert.ok(
      world.outbox.events.some((e) =>
        e.name === "identityUnlinked" && e.payload.identity.id === first.id
      ),
    );
    const last = await jsonIn(browser, "DELETE", `/identities/${second.id}`);
    assert.equal(last.body?.error?.code, "LAST_SIGN_IN_METHOD");
  });

  it("a password counts: set through the forgot-password flow, then the identity may go", async () => {
    const email = uniqueEmail("reset");
    const { browser } = await signInAs(world, email);
    const [identity] = await identitiesOf(browser);
    const mails = world.outbox.resets.length;
    assert.equal((await jsonIn(browser, "POST", "/password/forgot", { email })).status, 202);
    const mail = await waitForMail(world.outbox.resets, mails + 1);
    const reset = await jsonIn(browser, "POST", "/password/reset", {
      token: tokenOf(mail.url),
      password: "a brand new password",
    });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    const signedIn = await jsonIn(browser, "POST", "/sign-in", {
      email,
      password: "a brand new password",
    });
    assert.equal(signedIn.status, 200);
    assert.equal((await jsonIn(browser, "DELETE", `/identities/${identity.id}`)).status, 204);
  });

  it("a linked Telegram account counts, and then is the last way in itself", async () => {
    const { browser } = await signInAs(world, uniqueEmail("telegram"));
    const [identity] = await identitiesOf(browser);
    const link = await jsonIn(browser, "POST", "/telegram/link");
    const token = new URL(link.body.url).searchParams.get("start")!;
    const linked = await world.module.api.confirmTelegramLink(token, { id: 6_100_000_001 });
    assert.equal(linked.ok, true);
    assert.equal((await jsonIn(browser, "DELETE", `/identities/${identity.id}`)).status, 204);
    const unlink = await jsonIn(browser, "DELETE", "/telegram/link");
    assert.equal(unlink.status, 409);
    assert.equal(unlink.body.error.code, "LAST_SIGN_IN_METHOD");
    assert.ok((await meOf(browser)).body.user.telegram, "still linked");
  });

  it("another user's identity, or an id that is none, is 404", async () => {
    const mallory = await signInAs(world, uniqueEmail("mallory"));
    const { browser } = await signInAs(world, uniqueEmail("target"));
    const [theirs] = await identitiesOf(browser);
    for (const id of [theirs.id, "not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const answer = await jsonIn(mallory.browser, "DELETE", `/identities/${id}`);
      assert.equal(answer.status, 404, id);
      assert.equal(answer.body.error.code, "NOT_FOUND");
    }
    assert.equal((await identitiesOf(browser)).length, 1);
  });

  it("GET /identities needs a credential", async () => {
    assert.equal((await jsonIn(browserFor(world), "GET", "/identities")).status, 401);
  });
});
