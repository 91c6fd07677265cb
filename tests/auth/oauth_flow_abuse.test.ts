// The abuse cases of the sign-in flow with a provider (issue 40), against a real OpenID Provider
// (`oidc-provider` on 127.0.0.1): a callback without a state, with a state already used, or from
// another browser than the one that started the flow; a replayed code; a code redeemed with
// another PKCE verifier; a mixed-up issuer (RFC 9207); open redirects; an unknown provider; a
// deployment without publicOrigin. Each answers a clear error code and creates nothing.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { auth, oidcProvider, scryptPasswordHasher } from "../../src/auth/mod.ts";
import { loginAt } from "../helpers/http_browser.ts";
import { assertError, uniqueEmail } from "./helpers/http.ts";
import { send } from "./helpers/account.ts";
import {
  APP,
  AUTHORIZE,
  browserFor,
  countRows,
  errorOf,
  jsonIn,
  meOf,
  oauthWorld,
  signInAs,
} from "./helpers/oauth.ts";

const world = oauthWorld();

/** Rows that a refused callback must leave as they were. */
async function snapshot() {
  return {
    users: await countRows(world, "users"),
    identities: await countRows(world, "identities"),
    sessions: await countRows(world, "sessions"),
  };
}

/** The callback URL with its query changed. */
function withQuery(url: string, changes: Record<string, string | null>): string {
  const changed = new URL(url);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) changed.searchParams.delete(name);
    else changed.searchParams.set(name, value);
  }
  return changed.href;
}

describe("the callback refuses what this browser did not start", () => {
  it("no state: 303 to the default redirect with INVALID_OAUTH_STATE", async () => {
    const browser = browserFor(world);
    const callback = await loginAt(browser, AUTHORIZE, uniqueEmail("nostate"));
    const before = await snapshot();
    const answer = await browser.request("GET", withQuery(callback, { state: null }));
    assert.equal(errorOf(answer), "INVALID_OAUTH_STATE");
    assert.equal(new URL(answer.location!).pathname, "/");
    assert.deepEqual(await snapshot(), before);
  });

  it("a state used once: the replay fails even with the flow's cookie put back", async () => {
    const browser = browserFor(world);
    const callback = await loginAt(browser, `${AUTHORIZE}?redirectTo=/done`, uniqueEmail("reuse"));
    const verifier = browser.cookiesOf("app.example.com").get("service_oauth")!;
    assert.equal(errorOf(await browser.request("GET", callback)), null);
    browser.cookiesOf("app.example.com").set("service_oauth", verifier);
    const before = await snapshot();
    const replay = await browser.request("GET", callback);
    assert.equal(errorOf(replay), "INVALID_OAUTH_STATE");
    assert.deepEqual(await snapshot(), before);
  });

  it("a state from another browser (no or another flow cookie): refused, and spent", async () => {
    const victim = browserFor(world);
    const attacker = browserFor(world);
    const callback = await loginAt(attacker, AUTHORIZE, uniqueEmail("mallory"));
    // The victim holds a flow cookie of its own: it does not match the attacker's state.
    await victim.request("GET", AUTHORIZE);
    const before = await snapshot();
    const answer = await victim.request("GET", callback);
    assert.equal(errorOf(answer), "INVALID_OAUTH_STATE");
    assert.ok(!answer.headers.getSetCookie().some((c) => c.startsWith("service_auth=")));
    assert.equal((await meOf(victim)).status, 401);
    assert.deepEqual(await snapshot(), before);
    // Single use: the attacker's own browser cannot use it afterwards either.
    assert.equal(errorOf(await attacker.request("GET", callback)), "INVALID_OAUTH_STATE");
  });

  it("a replayed code (with a fresh, valid state) is refused by the provider: OAUTH_FAILED", async () => {
    const browser = browserFor(world);
    const email = uniqueEmail("replay");
    const first = await loginAt(browser, AUTHORIZE, email);
    assert.equal(errorOf(await browser.request("GET", first)), null);
    await jsonIn(browser, "POST", "/sign-out");
    const again = await browser.request("GET", AUTHORIZE);
    const state = new URL(again.location!).searchParams.get("state")!;
    const before = await snapshot();
    const replay = await browser.request("GET", withQuery(first, { state }));
    assert.equal(errorOf(replay), "OAUTH_FAILED");
    assert.equal((await meOf(browser)).status, 401);
    assert.deepEqual(await snapshot(), before);
  });

  it("a code redeemed with another PKCE verifier is refused by the provider: OAUTH_FAILED", async () => {
    const browser = browserFor(world);
    // Flow A reaches the provider and gets a code for A's challenge …
    const codeForA = await loginAt(browser, AUTHORIZE, uniqueEmail("pkce"));
    // … flow B (same browser, its cookie now B's verifier) presents it under B's state.
    const flowB = await browser.request("GET", AUTHORIZE);
    const stateB = new URL(flowB.location!).searchParams.get("state")!;
    const before = await snapshot();
    const answer = await browser.request("GET", withQuery(codeForA, { state: stateB }));
    assert.equal(errorOf(answer), "OAUTH_FAILED");
    assert.equal((await meOf(browser)).status, 401);
    assert.deepEqual(await snapshot(), before);
  });

  it("an iss that is not the provider's (RFC 9207 mix-up): OAUTH_FAILED", async () => {
    const browser = browserFor(world);
    const callback = await loginAt(browser, AUTHORIZE, uniqueEmail("mixup"));
    const before = await snapshot();
    const answer = await browser.request(
      "GET",
      withQuery(callback, { iss: "https://attacker.example" }),
    );
    assert.equal(errorOf(answer), "OAUTH_FAILED");
    assert.deepEqual(await snapshot(), before);
  });

  it("the provider's refusal (error=access_denied) comes back as OAUTH_DENIED", async () => {
    const browser = browserFor(world);
    const started = await browser.request("GET", `${AUTHORIZE}?redirectTo=/signin`);
    const state = new URL(started.location!).searchParams.get("state")!;
    const callback = `${APP}/api/auth/oauth/acme/callback?` + new URLSearchParams({
      error: "access_denied",
      state,
      iss: world.op.issuer,
    });
    const answer = await browser.request("GET", callback);
    assert.equal(errorOf(answer), "OAUTH_DENIED");
    assert.equal(new URL(answer.location!).pathname, "/signin");
  });
});

describe("no open redirect, no unknown provider", () => {
  const hostile = [
    "//evil.example/",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "http://app.example.com/", // not the configured (https) origin
    "javascript:alert(1)",
    "data:text/html,hi",
    "/ok\n/evil",
    "https://user@app.example.com/",
  ];

  for (const target of hostile) {
    it(`redirectTo ${JSON.stringify(target)}: 400 INVALID_REDIRECT, nothing stored`, async () => {
      const states = await countRows(world, "oauth_states");
      const browser = browserFor(world);
      const answer = await browser.request(
        "GET",
        `${AUTHORIZE}?redirectTo=${encodeURIComponent(target)}`,
      );
      assert.equal(answer.status, 400, answer.text);
      assert.equal(JSON.parse(answer.text).error.code, "INVALID_REDIRECT");
      assert.equal(answer.headers.get("location"), null);
      assert.equal(answer.headers.getSetCookie().length, 0);
      assert.equal(await countRows(world, "oauth_states"), states);
    });
  }

  it("a path or a URL on publicOrigin or a trusted origin is accepted", async () => {
    for (const target of ["/app?tab=1#/x", `${APP}/app`, "https://spa.example.com/back"]) {
      const answer = await browserFor(world).request(
        "GET",
        `${AUTHORIZE}?redirectTo=${encodeURIComponent(target)}`,
      );
      assert.equal(answer.status, 302, `${target}: ${answer.text}`);
    }
  });

  it("an unknown provider is 404 on every provider route", async () => {
    assertError(await send(world.module, "GET", "/oauth/nope/authorize"), 404, "NOT_FOUND");
    assertError(
      await send(world.module, "GET", "/oauth/nope/callback?code=x&state=y"),
      404,
      "NOT_FOUND",
    );
    const { browser } = await signInAs(world, uniqueEmail("known"));
    const linked = await jsonIn(browser, "POST", "/oauth/nope/link", {});
    assert.equal(linked.status, 404);
    assert.equal(linked.body.error.code, "NOT_FOUND");
  });

  it("without publicOrigin the callback URL is only built for a loopback request", async () => {
    const bare = auth({
      database: world.db,
      secret: "oauth-tests-secret-0123456789-abcdefgh",
      passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }),
      autoStart: false,
      oauth: {
        providers: {
          acme: oidcProvider({
            issuer: world.op.issuer,
            clientId: world.op.clientId,
            clientSecret: world.op.clientSecret,
          }),
        },
      },
    });
    const publicHost = await bare.fetch(
      new Request("http://app.example.org/api/auth/oauth/acme/authorize"),
    );
    assert.equal(publicHost.status, 303);
    assert.match(publicHost.headers.get("location")!, /error=OAUTH_UNAVAILABLE/);
    const local = await bare.fetch(
      new Request("http://localhost:8123/api/auth/oauth/acme/authorize"),
    );
    assert.equal(local.status, 302);
    assert.equal(
      new URL(local.headers.get("location")!).searchParams.get("redirect_uri"),
      "http://localhost:8123/api/auth/oauth/acme/callback",
    );
    assert.ok(
      !local.headers.get("set-cookie")!.includes("Secure"),
      "no Secure on http://localhost",
    );
  });
});
