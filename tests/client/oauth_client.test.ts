// The typed client's provider calls (issue 40): client.oauth.providers/authorizeUrl/link and
// client.identities.list/unlink, against the auth module with a real OpenID Provider
// (`oidc-provider` on 127.0.0.1), in one browser's cookies. Every answer is parsed with the
// route's response schema; the compiler checks the types against those schemas.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { z } from "zod";
import type { Equals } from "../../src/auth/http/exact_schema.ts";
import {
  identitiesResponse,
  oauthLinkResponse,
  providersResponse,
} from "../../src/auth/oauth/oauth_inputs.ts";
import { type AuthClient, type AuthResult, createAuthClient } from "../../src/client/mod.ts";
import { loginAt } from "../helpers/http_browser.ts";
import { uniqueEmail } from "../auth/helpers/http.ts";
import { APP, browserFor, errorOf, oauthWorld } from "../auth/helpers/oauth.ts";
import { expectData, expectError } from "./helpers.ts";

function assertType<T extends true>(_proof: T): void {}
type Result<F> = F extends (...args: never[]) => Promise<AuthResult<infer T>> ? T : never;
assertType<Equals<Result<AuthClient["oauth"]["providers"]>, z.output<typeof providersResponse>>>(
  true,
);
assertType<Equals<Result<AuthClient["oauth"]["link"]>, z.output<typeof oauthLinkResponse>>>(true);
assertType<Equals<Result<AuthClient["identities"]["list"]>, z.output<typeof identitiesResponse>>>(
  true,
);
assertType<Equals<Result<AuthClient["identities"]["unlink"]>, null>>(true);
assertType<Equals<ReturnType<AuthClient["oauth"]["authorizeUrl"]>, string>>(true);

const world = oauthWorld();

describe("typed auth client: provider calls", () => {
  it("authorizeUrl builds the sign-in URL from baseUrl (no request)", () => {
    const client = createAuthClient({ baseUrl: "https://api.example.com/api/auth/" });
    assert.equal(
      client.oauth.authorizeUrl("acme", { redirectTo: "/app?x=1" }),
      "https://api.example.com/api/auth/oauth/acme/authorize?redirectTo=%2Fapp%3Fx%3D1",
    );
    assert.equal(
      client.oauth.authorizeUrl("a b"),
      "https://api.example.com/api/auth/oauth/a%20b/authorize",
    );
  });

  it("providers, sign-in through authorizeUrl, identities, link, unlink", async () => {
    const browser = browserFor(world);
    const client = createAuthClient({ baseUrl: `${APP}/api/auth`, fetch: browser.fetch });
    const { providers } = expectData(await client.oauth.providers(), providersResponse);
    assert.deepEqual(providers, [{ id: "acme", name: "Acme SSO" }]);

    const email = uniqueEmail("client");
    const url = client.oauth.authorizeUrl("acme", { redirectTo: "/app" });
    const callback = await loginAt(browser, url, email);
    assert.equal(errorOf(await browser.request("GET", callback)), null);
    assert.equal((await client.me()).data?.user.email, email);

    const first = expectData(await client.identities.list(), identitiesResponse).identities;
    assert.equal(first.length, 1);
    expectError(await client.identities.unlink(first[0].id), 409, "LAST_SIGN_IN_METHOD");

    const link = expectData(
      await client.oauth.link("acme", { redirectTo: "/account" }),
      oauthLinkResponse,
    );
    browser.cookiesOf("127.0.0.1").clear(); // log out at the provider: it asks who
    const linked = await loginAt(browser, link.url, uniqueEmail("client-second"));
    assert.equal(errorOf(await browser.request("GET", linked)), null);
    const both = expectData(await client.identities.list(), identitiesResponse).identities;
    assert.equal(both.length, 2);
    assert.deepEqual(await client.identities.unlink(first[0].id), { data: null, error: null });
    assert.equal(
      expectData(await client.identities.list(), identitiesResponse).identities.length,
      1,
    );

    expectError(await client.oauth.link("nope"), 404, "NOT_FOUND");
    expectError(
      await client.oauth.link("acme", { redirectTo: "https://evil.example/" }),
      400,
      "INVALID_REDIRECT",
    );
  });
});
