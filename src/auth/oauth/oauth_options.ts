/**
 * The `oauth` option of `auth()`: the providers users sign in with, checked at instantiation
 * (a bad one throws `ModuleConfigError` naming it). Nothing is fetched here: a provider's
 * discovery document is read on its first sign-in.
 *
 * @module
 */

import { isOrigin } from "../../core/origin.ts";
import type { AuthOAuthProvider } from "./oauth_providers.ts";
import { isLoopbackHost } from "../http/redirect_target.ts";

/**
 * Options of `auth({ oauth })`: sign-in with OpenID Connect and OAuth providers, and connecting
 * them to an account. See docs/auth.md, "Sign-in methods".
 *
 * @example Google and the company's own provider
 * ```ts
 * import { auth, pgliteAdapter } from "@app/fragment-cli";
 * import { googleProvider, oidcProvider } from "@app/fragment-cli/auth";
 *
 * auth({
 *   database: pgliteAdapter(),
 *   publicOrigin: "https://app.example.com",
 *   oauth: {
 *     providers: {
 *       google: googleProvider({ clientId: "1234-abc.apps.googleusercontent.com", clientSecret: "…" }),
 *       acme: oidcProvider({ issuer: "https://sso.acme.example", clientId: "app", clientSecret: "…" }),
 *     },
 *   },
 * });
 * // Register https://app.example.com/api/auth/oauth/google/callback at Google,
 * // and https://app.example.com/api/auth/oauth/acme/callback at Acme's provider.
 * ```
 */
export interface AuthOAuthOptions {
  /**
   * The providers by id: the id names the routes (`<mountRoute>/oauth/<id>/authorize`) and the
   * redirect URL to register at the provider (`<publicOrigin><mountRoute>/oauth/<id>/callback`).
   * An id is 1–32 of `a-z`, `0-9` and `-`, starting with a letter or digit.
   */
  providers: { [id: string]: AuthOAuthProvider };
  /**
   * Where the callback sends the browser when the flow named no `redirectTo`, and where a
   * callback with an unknown or expired `state` lands (with `?error=INVALID_OAUTH_STATE`): a path,
   * or a URL on `publicOrigin` or a trusted origin.
   * @default "/"
   */
  redirectTo?: string;
}

/** A provider after defaults and checks. */
export interface ResolvedOAuthProvider {
  id: string;
  kind: "oidc" | "microsoft" | "github";
  name: string;
  clientId: string;
  clientSecret: string;
  scopes: readonly string[];
  /** OpenID Connect: the issuer identifier (the discovery base). `null` for GitHub. */
  issuer: string | null;
  /** Microsoft: the tenant. */
  tenant: string | null;
  /** GitHub: its web and API origins. */
  webOrigin: string | null;
  apiOrigin: string | null;
  /** Whether the provider is reached over plain http (a loopback host only). */
  insecure: boolean;
}

/** The `oauth` option after defaults and checks. */
export interface ResolvedOAuthOptions {
  providers: ReadonlyMap<string, ResolvedOAuthProvider>;
  redirectTo: string;
}

const PROVIDER_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;
const CLIENT_ID = /^[\x21-\x7E]{1,512}$/;
// RFC 6749, 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/;
const TENANT = /^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$/;

/** Whether `value` is an https URL, or an http one on a loopback host. */
function isProviderUrl(value: unknown): value is string {
  if (typeof value !== "string" || value.length > 2048) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password || url.search || url.hash) return false;
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
}

function checkProvider(
  id: string,
  provider: AuthOAuthProvider,
  fail: (details: string) => never,
): ResolvedOAuthProvider {
  const at = `oauth.providers.${id}`;
  if (!PROVIDER_ID.test(id)) {
    fail(`${at}: a provider id is 1-32 of a-z, 0-9 and "-", starting with a letter or digit`);
  }
  if (typeof provider !== "object" || provider === null) {
    fail(`${at}: expected a provider (oidcProvider(), googleProvider(), githubProvider(), …)`);
  }
  const kind = provider.type;
  if (kind !== "oidc" && kind !== "microsoft" && kind !== "github") {
    fail(`${at}: expected a provider (oidcProvider(), googleProvider(), githubProvider(), …)`);
  }
  if (typeof provider.clientId !== "string" || !CLIENT_ID.test(provider.clientId)) {
    fail(`${at}.clientId: expected the client id the provider issued (no spaces)`);
  }
  const secret = provider.clientSecret;
  if (typeof secret !== "string" || secret.length === 0 || secret.length > 4096) {
    fail(`${at}.clientSecret: expected the client secret the provider issued`);
  }
  const name = provider.name ?? id;
  if (typeof name !== "string" || name.trim() === "" || name.length > 64) {
    fail(`${at}.name: expected 1-64 characters`);
  }
  const defaults = kind === "github" ? ["read:user", "user:email"] : ["openid", "email", "profile"];
  const given = provider.scopes ?? defaults;
  if (!Array.isArray(given) || given.length > 32 || !given.every((s) => SCOPE.test(s))) {
    fail(`${at}.scopes: expected an array of scope names (no spaces or quotes)`);
  }
  const scopes = kind === "github" || given.includes("openid") ? [...given] : ["openid", ...given];
  const resolved: ResolvedOAuthProvider = {
    id,
    kind,
    name: name.trim(),
    clientId: provider.clientId,
    clientSecret: secret,
    scopes: [...new Set(scopes)],
    issuer: null,
    tenant: null,
    webOrigin: null,
    apiOrigin: null,
    insecure: false,
  };
  if (provider.type === "github") {
    const webOrigin = provider.webOrigin ?? "https://github.com";
    const apiOrigin = provider.apiOrigin ?? "https://api.github.com";
    if (!isProviderUrl(webOrigin) || !isOrigin(webOrigin)) {
      fail(`${at}.webOrigin: expected an https origin like "https://github.com"`);
    }
    // GitHub Enterprise Server serves its API under a path (`https://host/api/v3`).
    if (!isProviderUrl(apiOrigin) || apiOrigin.endsWith("/")) {
      fail(`${at}.apiOrigin: expected an https URL like "https://api.github.com" (no trailing /)`);
    }
    const insecure = [webOrigin, apiOrigin].some((url) => new URL(url).protocol === "http:");
    return { ...resolved, webOrigin, apiOrigin, insecure };
  }
  let issuer: string;
  let tenant: string | null = null;
  if (provider.type === "microsoft") {
    tenant = provider.tenant ?? "common";
    if (typeof tenant !== "string" || !TENANT.test(tenant)) {
      fail(
        `${at}.tenant: expected "common", "organizations", "consumers" or a tenant id or domain`,
      );
    }
    issuer = provider.issuer ?? `https://login.microsoftonline.com/${tenant}/v2.0`;
  } else {
    issuer = provider.issuer;
  }
  if (!isProviderUrl(issuer)) {
    fail(
      `${at}.issuer: expected an https URL (http only on a loopback host), got ${
        JSON.stringify(issuer)
      }`,
    );
  }
  return { ...resolved, issuer, tenant, insecure: new URL(issuer).protocol === "http:" };
}

/** Checks the `oauth` option; `fail` throws the module's configuration error. */
export function resolveOAuthOptions(
  options: AuthOAuthOptions | undefined,
  fail: (details: string) => never,
  isAllowedRedirect: (target: string) => boolean,
): ResolvedOAuthOptions | null {
  if (options === undefined) return null;
  if (typeof options !== "object" || options === null) fail("oauth: expected an object");
  const given = options.providers;
  if (typeof given !== "object" || given === null || Object.keys(given).length === 0) {
    fail("oauth.providers: expected at least one provider, by id");
  }
  const providers = new Map<string, ResolvedOAuthProvider>();
  for (const [id, provider] of Object.entries(given)) {
    providers.set(id, checkProvider(id, provider, fail));
  }
  const redirectTo = options.redirectTo ?? "/";
  if (typeof redirectTo !== "string" || !isAllowedRedirect(redirectTo)) {
    fail("oauth.redirectTo: expected a path, or a URL on publicOrigin or a trusted origin");
  }
  return { providers, redirectTo };
}
