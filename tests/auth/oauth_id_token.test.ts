// deno-lint-ignore-file no-explicit-any
// The ID token checks of sign-in with an OpenID Connect provider (issue 40), against a hand-made
// provider that answers the ID token each test makes (tests/helpers/oidc_stand_in.ts): a wrong
// `aud`, `iss` or `nonce`, an expired token, one signed by another key, `alg: none` (even when
// the provider's discovery lists it). Each is refused with OAUTH_FAILED and creates nothing. And
// Microsoft's multi-tenant issuer: the `{tenantid}` template filled with the token's own `tid`,
// `organizations` refusing personal accounts, and `xms_edov` as the verified-address claim.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { microsoftProvider, oidcProvider } from "../../src/auth/mod.ts";
import { pgliteAdapter } from "../../src/sql/pglite_adapter.ts";
import { httpBrowser } from "../helpers/http_browser.ts";
import { type IssuedCode, type StandIn, startStandIn } from "../helpers/oidc_stand_in.ts";
import { accountModule } from "./helpers/account.ts";
import { uniqueEmail } from "./helpers/http.ts";
import { APP, errorOf, meOf } from "./helpers/oauth.ts";

const db = pgliteAdapter();
let idp: StandIn;
let module: Awaited<ReturnType<typeof accountModule>>["module"];
const TENANT = "3f7a1c2e-9b4d-4e8f-a6c1-0d2e4f6a8b9c";
const CONSUMERS = "9188040d-6c67-4c5b-b112-36a304b66dad";

before(async () => {
  idp = await startStandIn();
  const client = { clientId: idp.clientId, clientSecret: idp.clientSecret };
  ({ module } = await accountModule(db, {
    secret: "oauth-tests-secret-0123456789-abcdefgh",
    oauth: {
      providers: {
        plain: oidcProvider({ issuer: idp.origin, ...client }),
        ms: microsoftProvider({ issuer: `${idp.origin}/common/v2.0`, ...client }),
        msorg: microsoftProvider({
          tenant: "organizations",
          issuer: `${idp.origin}/organizations/v2.0`,
          ...client,
        }),
      },
    },
  }));
});
after(async () => {
  await idp.close();
  await db.close();
});

async function counts() {
  const [row] = await db.query<any>(
    `SELECT (SELECT count(*) FROM auth.users)::int AS users,
            (SELECT count(*) FROM auth.identities)::int AS identities,
            (SELECT count(*) FROM auth.sessions)::int AS sessions`,
  );
  return row;
}

/** Signs in with `provider` in a fresh browser, the stand-in answering `idToken`. */
async function signIn(provider: string, idToken: (request: IssuedCode) => Promise<string>) {
  idp.idToken = idToken;
  idp.account = {
    sub: `sub-${crypto.randomUUID()}`,
    email: uniqueEmail("idt"),
    email_verified: true,
  };
  const browser = httpBrowser({ origin: APP, fetch: (request) => module.fetch(request) });
  const start = `${APP}/api/auth/oauth/${provider}/authorize`;
  const toCallback = await browser.follow(start, (next) => next.includes("/callback"));
  assert.ok(toCallback.location?.includes("/callback"), `${toCallback.status} ${toCallback.text}`);
  const answer = await browser.request("GET", toCallback.location!);
  return { browser, answer };
}

/**
 * Asserts the sign-in was refused with OAUTH_FAILED for `reason` (what the module logs for the
 * operator: the check that failed, not another one) and changed nothing.
 */
async function refused(
  provider: string,
  reason: RegExp,
  idToken: (request: IssuedCode) => Promise<string>,
) {
  const before = await counts();
  const logged: string[] = [];
  const warn = console.warn;
  console.warn = (line: string) => void logged.push(line);
  let outcome;
  try {
    outcome = await signIn(provider, idToken);
  } finally {
    console.warn = warn;
  }
  const { browser, answer } = outcome;
  assert.equal(errorOf(answer), "OAUTH_FAILED");
  assert.ok(logged.some((line) => reason.test(line)), `${reason} not in ${JSON.stringify(logged)}`);
  assert.equal((await meOf(browser)).status, 401);
  assert.deepEqual(await counts(), before);
}

describe("the ID token is verified (signature from the JWKS, iss, aud, exp, nonce)", () => {
  it("a correct one signs in (the stand-in is a working provider)", async () => {
    const { browser, answer } = await signIn("plain", (r) => idp.sign(idp.claims(r)));
    assert.equal(errorOf(answer), null);
    const me = await meOf(browser);
    assert.equal(me.body.user.email, idp.account.email);
    assert.equal(me.body.user.emailVerified, true);
  });

  it("wrong aud", () =>
    refused("plain", /"aud"/, (r) => idp.sign(idp.claims(r, { aud: "another-client" }))));

  it("wrong iss", () =>
    refused("plain", /"iss"/, (r) => idp.sign(idp.claims(r, { iss: "https://attacker.example" }))));

  it("wrong nonce", () =>
    refused("plain", /"nonce"/, (r) => idp.sign(idp.claims(r, { nonce: "not-it" }))));

  it("no nonce", () =>
    refused("plain", /"nonce"/, (r) => {
      const { nonce: _, ...claims } = idp.claims(r);
      return idp.sign(claims);
    }));

  it("expired", () =>
    refused("plain", /"exp"/, (r) => {
      const now = Math.floor(Date.now() / 1000);
      return idp.sign(idp.claims(r, { iat: now - 3600, exp: now - 600 }));
    }));

  it("signed by another key (the published key's kid)", () =>
    refused(
      "plain",
      /signature verification failed/,
      (r) => idp.sign(idp.claims(r), { key: "other" }),
    ));

  it("alg: none", async () => {
    await refused("plain", /"alg"/, (r) => Promise.resolve(idp.unsigned(idp.claims(r))));
  });
});

describe("alg: none listed by a hostile provider's discovery", () => {
  let hostile: StandIn;
  let hostileModule: typeof module;
  before(async () => {
    hostile = await startStandIn();
    hostile.advertiseNone = true;
    hostileModule = (await accountModule(db, {
      secret: "oauth-tests-secret-0123456789-abcdefgh",
      oauth: {
        providers: {
          hostile: oidcProvider({
            issuer: hostile.origin,
            clientId: hostile.clientId,
            clientSecret: hostile.clientSecret,
          }),
        },
      },
    })).module;
  });
  after(() => hostile.close());

  it("is refused all the same", async () => {
    hostile.idToken = (r) => Promise.resolve(hostile.unsigned(hostile.claims(r)));
    const before = await counts();
    const browser = httpBrowser({ origin: APP, fetch: (request) => hostileModule.fetch(request) });
    const start = `${APP}/api/auth/oauth/hostile/authorize`;
    const toCallback = await browser.follow(start, (next) => next.includes("/callback"));
    const answer = await browser.request("GET", toCallback.location!);
    assert.equal(errorOf(answer), "OAUTH_FAILED");
    assert.deepEqual(await counts(), before);
  });
});

describe("Microsoft's multi-tenant issuer ({tenantid} filled with the token's tid)", () => {
  const tenantIssuer = (tid: string) => `${idp.origin}/${tid}/v2.0`;

  it("common: a token of any tenant whose iss names its own tid signs in", async () => {
    const { browser, answer } = await signIn(
      "ms",
      (r) =>
        idp.sign(
          idp.claims(r, { iss: tenantIssuer(TENANT), tid: TENANT, email_verified: undefined }),
        ),
    );
    assert.equal(errorOf(answer), null);
    // Microsoft asserts nothing about the address without xms_edov: not verified.
    assert.equal((await meOf(browser)).body.user.emailVerified, false);
  });

  it("xms_edov: true counts as a verified address", async () => {
    const { browser, answer } = await signIn("ms", (r) =>
      idp.sign(
        idp.claims(r, {
          iss: tenantIssuer(TENANT),
          tid: TENANT,
          email_verified: undefined,
          xms_edov: true,
        }),
      ));
    assert.equal(errorOf(answer), null);
    assert.equal((await meOf(browser)).body.user.emailVerified, true);
  });

  it("an iss naming another tenant than tid", () =>
    refused(
      "ms",
      /"iss"/,
      (r) => idp.sign(idp.claims(r, { iss: tenantIssuer(CONSUMERS), tid: TENANT })),
    ));

  it("the template itself as iss", () =>
    refused(
      "ms",
      /"iss"/,
      (r) => idp.sign(idp.claims(r, { iss: `${idp.origin}/{tenantid}/v2.0`, tid: TENANT })),
    ));

  it("no tid", () =>
    refused("ms", /no tenant/, (r) => idp.sign(idp.claims(r, { iss: tenantIssuer(TENANT) }))));

  it("organizations refuses the personal accounts' tenant", () =>
    refused(
      "msorg",
      /Personal Microsoft accounts/,
      (r) => idp.sign(idp.claims(r, { iss: tenantIssuer(CONSUMERS), tid: CONSUMERS })),
    ));
});
