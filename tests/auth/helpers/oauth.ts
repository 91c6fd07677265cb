// deno-lint-ignore-file no-explicit-any
/**
 * The provider tests' world: PGlite, a real OpenID Provider (`oidc-provider` on 127.0.0.1) whose
 * client redirects to the app's callback, an auth module configured with it as `acme`, and a
 * browser over HTTP that reaches the module through its `fetch`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { after, before } from "node:test";
import { type AuthModule, type AuthOptions, oidcProvider } from "../../../src/auth/mod.ts";
import type { SqlAdapter } from "../../../src/sql/mod.ts";
import { pgliteAdapter } from "../../../src/sql/pglite_adapter.ts";
import { type HttpBrowser, httpBrowser, loginAt } from "../../helpers/http_browser.ts";
import { startOidcProvider, type TestOidcProvider } from "../../helpers/oidc_provider.ts";
import { accountModule, type Outbox } from "./account.ts";

/** The app's origin (`publicOrigin`). */
export const APP = "https://app.example.com";
/** The redirect URL registered at the provider. */
export const CALLBACK = `${APP}/api/auth/oauth/acme/callback`;
/** Where a sign-in with the provider starts. */
export const AUTHORIZE = `${APP}/api/auth/oauth/acme/authorize`;

/** What the tests of one file share, set in `before`. */
export interface OAuthWorld {
  db: SqlAdapter;
  op: TestOidcProvider;
  module: AuthModule;
  outbox: Outbox;
}

/** Registers `before`/`after` hooks building the world; read it inside tests. */
export function oauthWorld(options: Partial<AuthOptions> = {}): OAuthWorld {
  const world = { db: pgliteAdapter() } as OAuthWorld;
  before(async () => {
    world.op = await startOidcProvider({ redirectUris: [CALLBACK] });
    const { module, outbox } = await accountModule(world.db, {
      secret: "oauth-tests-secret-0123456789-abcdefgh",
      trustedOrigins: ["https://spa.example.com"],
      oauth: {
        providers: {
          acme: oidcProvider({
            issuer: world.op.issuer,
            clientId: world.op.clientId,
            clientSecret: world.op.clientSecret,
            name: "Acme SSO",
          }),
        },
      },
      ...options,
    });
    world.module = module;
    world.outbox = outbox;
  });
  after(async () => {
    await world.op.close();
    await world.db.close();
  });
  return world;
}

/** A fresh browser whose requests to the app go to the module. */
export function browserFor(world: OAuthWorld): HttpBrowser {
  return httpBrowser({ origin: APP, fetch: (request) => world.module.fetch(request) });
}

/** The `error` a 303 from the callback sends the browser back with (`null` on success). */
export function errorOf(answer: { status: number; location: string | null }): string | null {
  assert.equal(answer.status, 303, `expected a 303, got ${answer.status}`);
  return new URL(answer.location!).searchParams.get("error");
}

/** Signs in with the provider as `login` (in `browser`, else a fresh one). */
export async function signInAs(
  world: OAuthWorld,
  login: string,
  options: { redirectTo?: string; browser?: HttpBrowser } = {},
) {
  const browser = options.browser ?? browserFor(world);
  const start = `${AUTHORIZE}?redirectTo=${encodeURIComponent(options.redirectTo ?? "/app")}`;
  const callback = await loginAt(browser, start, login);
  const answer = await browser.request("GET", callback);
  return { browser, callback, answer };
}

/** `GET /me` in a browser. */
export async function meOf(browser: HttpBrowser): Promise<{ status: number; body: any }> {
  const me = await browser.request("GET", `${APP}/api/auth/me`);
  return { status: me.status, body: me.text ? JSON.parse(me.text) : null };
}

/** A JSON request in a browser (its cookies; the app's own Origin). */
export async function jsonIn(
  browser: HttpBrowser,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; headers: Headers; body: any }> {
  const answer = await browser.request(method, `${APP}/api/auth${path}`, undefined, body);
  return {
    status: answer.status,
    headers: answer.headers,
    body: answer.text ? JSON.parse(answer.text) : null,
  };
}

/** The number of rows of an auth table. */
export async function countRows(world: OAuthWorld, table: string): Promise<number> {
  const [row] = await world.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM auth.${table}`);
  return row.n;
}
