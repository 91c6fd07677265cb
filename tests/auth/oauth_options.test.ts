// The `oauth` option of auth() (issue 40): a bad provider configuration throws ModuleConfigError
// at auth(), naming the setting; a good one fetches nothing until the first sign-in and mounts
// the provider routes (absent without the option).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  auth,
  type AuthOAuthProvider,
  githubProvider,
  gitlabProvider,
  googleProvider,
  microsoftProvider,
  oidcProvider,
  scryptPasswordHasher,
} from "../../src/auth/mod.ts";
import { ModuleConfigError } from "../../src/core/mod.ts";
import type { SqlAdapter } from "../../src/sql/mod.ts";

// Never queried: these tests only instantiate the module.
const database = {
  kind: "pglite",
  target: "memory://",
  query: () => Promise.reject(new Error("not used")),
  transaction: () => Promise.reject(new Error("not used")),
} as unknown as SqlAdapter;
const passwordHasher = scryptPasswordHasher({ params: { ln: 4 } });
const client = { clientId: "app", clientSecret: "a-client-secret" };

function withProviders(
  providers: Record<string, AuthOAuthProvider>,
  extra: { redirectTo?: string } = {},
) {
  return auth({
    database,
    passwordHasher,
    publicOrigin: "https://app.example.com",
    trustedOrigins: ["https://spa.example.com"],
    oauth: { providers, ...extra },
  });
}

function refuses(build: () => unknown, mentions: RegExp) {
  assert.throws(build, (error: unknown) => {
    assert.ok(error instanceof ModuleConfigError, String(error));
    assert.match(error.message, mentions);
    return true;
  });
}

describe("auth({ oauth })", () => {
  it("mounts the provider routes only with the option, and fetches nothing at auth()", () => {
    const routes = (module: { routes: readonly { method: string; path: string }[] }) =>
      module.routes.map((r) => `${r.method} ${r.path}`).filter((r) => /oauth|identities/.test(r));
    assert.deepEqual(routes(auth({ database, passwordHasher })), []);
    // An issuer nobody serves: discovery waits for the first sign-in.
    const module = withProviders({
      acme: oidcProvider({ issuer: "https://sso.invalid", ...client }),
      google: googleProvider(client),
      microsoft: microsoftProvider(client),
      gitlab: gitlabProvider(client),
      github: githubProvider(client),
    });
    assert.deepEqual(routes(module).sort(), [
      "DELETE /api/auth/identities/:identityId",
      "GET /api/auth/identities",
      "GET /api/auth/oauth/:provider/authorize",
      "GET /api/auth/oauth/:provider/callback",
      "GET /api/auth/oauth/providers",
      "POST /api/auth/oauth/:provider/link",
    ]);
  });

  it("the presets' defaults: names, issuers, tenant", () => {
    assert.deepEqual(googleProvider(client), {
      ...client,
      type: "oidc",
      name: "Google",
      issuer: "https://accounts.google.com",
    });
    // An unset environment variable (undefined) keeps the default.
    assert.equal(googleProvider({ ...client, name: undefined }).name, "Google");
    assert.equal(microsoftProvider({ ...client, tenant: undefined }).tenant, "common");
    assert.equal(gitlabProvider(client).issuer, "https://gitlab.com");
    assert.equal(
      gitlabProvider({ ...client, issuer: "https://git.acme.example" }).issuer,
      "https://git.acme.example",
    );
    assert.equal(microsoftProvider(client).tenant, "common");
    assert.equal(githubProvider(client).name, "GitHub");
    assert.equal(oidcProvider({ issuer: "https://sso.acme.example", ...client }).name, undefined);
  });

  it("refuses a bad provider configuration with ModuleConfigError naming it", () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /oauth\.providers: expected at least one provider/],
      [{ "Bad Id": googleProvider(client) }, /oauth\.providers\.Bad Id: a provider id/],
      [{ x: { type: "saml", ...client } }, /oauth\.providers\.x: expected a provider/],
      [{ x: "google" }, /oauth\.providers\.x: expected a provider/],
      [{ x: googleProvider({ ...client, clientId: "" }) }, /oauth\.providers\.x\.clientId/],
      [
        { x: googleProvider({ ...client, clientId: "has space" }) },
        /oauth\.providers\.x\.clientId/,
      ],
      [{ x: googleProvider({ ...client, clientSecret: "" }) }, /oauth\.providers\.x\.clientSecret/],
      [
        { x: oidcProvider({ issuer: "http://sso.acme.example", ...client }) },
        /\.x\.issuer: expected an https URL/,
      ],
      [{ x: oidcProvider({ issuer: "not a url", ...client }) }, /\.x\.issuer/],
      [{ x: oidcProvider({ issuer: "https://sso.example/?tenant=1", ...client }) }, /\.x\.issuer/],
      [{ x: oidcProvider({ issuer: "https://user:pw@sso.example", ...client }) }, /\.x\.issuer/],
      [{ x: googleProvider({ ...client, scopes: ["openid email"] }) }, /\.x\.scopes/],
      [{ x: googleProvider({ ...client, name: "" }) }, /\.x\.name/],
      [{ x: microsoftProvider({ ...client, tenant: "a/b" }) }, /\.x\.tenant/],
      [
        { x: githubProvider({ ...client, webOrigin: "https://github.com/login" }) },
        /\.x\.webOrigin/,
      ],
      [{ x: githubProvider({ ...client, apiOrigin: "http://api.github.com" }) }, /\.x\.apiOrigin/],
    ];
    for (const [providers, mentions] of cases) {
      refuses(() => withProviders(providers as Record<string, AuthOAuthProvider>), mentions);
    }
    refuses(
      () => auth({ database, passwordHasher, oauth: "google" as never }),
      /oauth: expected an object/,
    );
  });

  it("oauth.redirectTo: a path or an allowed origin", () => {
    const providers = { google: googleProvider(client) };
    for (const bad of ["//evil.example", "https://evil.example/", "/\\evil", "javascript:x"]) {
      refuses(() => withProviders(providers, { redirectTo: bad }), /oauth\.redirectTo/);
    }
    for (const good of ["/welcome", "https://app.example.com/in", "https://spa.example.com/#/in"]) {
      withProviders(providers, { redirectTo: good });
    }
  });

  it("http is allowed for a provider on a loopback host only (local development)", () => {
    withProviders({
      local: oidcProvider({ issuer: "http://127.0.0.1:9000", ...client }),
      dev: oidcProvider({ issuer: "http://localhost:9000/realms/dev", ...client }),
      gh: githubProvider({
        ...client,
        webOrigin: "http://localhost:9100",
        apiOrigin: "http://localhost:9100/api",
      }),
    });
  });
});
