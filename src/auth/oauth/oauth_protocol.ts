/**
 * The relying party's side of the protocols, on `oauth4webapi` (certified, Web APIs only: the same
 * code on Deno, Node and Bun): discovery, the authorization URL (PKCE `S256`, `state`, `nonce`),
 * the authorization response (`state` and RFC 9207's `iss`), the code exchange, and the ID token
 * (signature from the provider's JWKS, `iss`, `aud`, `exp`, `iat`, `nonce`). GitHub, which has no
 * ID token, answers its user from its documented API. No JWT or JWKS code of ours: the library
 * does every check, and is imported on first use (a deployment without providers never loads it).
 *
 * @module
 */

import type * as OAuth from "oauth4webapi";
import { HttpError } from "../../core/mod.ts";
import { emailSchema } from "../account/email_address.ts";
import { authError } from "../errors.ts";
import type { ResolvedOAuthProvider } from "./oauth_options.ts";

/** Who signed in at the provider. */
export interface ProviderProfile {
  /** The provider's stable id of the account (`sub`, GitHub's numeric id). */
  subject: string;
  /** The address the provider gave (normalized), or `null` when it gave none usable. */
  email: string | null;
  /** Whether the provider asserts that address verified. */
  emailVerified: boolean;
}

/** What the authorization URL carries. */
export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  codeChallenge: string;
  /** The OpenID Connect `nonce`; `null` for GitHub. */
  nonce: string | null;
}

/** What the callback brings, and what the flow kept to check it. */
export interface CallbackCheck {
  /** The authorization response's parameters (`code`, `state`, `iss`, `error`, …). */
  params: URLSearchParams;
  state: string;
  redirectUri: string;
  codeVerifier: string;
  nonce: string | null;
}

/** One provider's protocol. */
export interface ProviderProtocol {
  /** Whether it is an OpenID Connect provider (a `nonce` is sent). */
  readonly openid: boolean;
  /** The provider's authorization URL; 503 `OAUTH_UNAVAILABLE` when discovery fails. */
  authorizationUrl(request: AuthorizationRequest): Promise<string>;
  /**
   * Checks the authorization response, redeems the code and answers who signed in: 401
   * `OAUTH_DENIED` (the user or provider refused), 401 `OAUTH_FAILED` (a check failed, the code was
   * refused), 503 `OAUTH_UNAVAILABLE` (the provider could not be reached).
   */
  finish(check: CallbackCheck): Promise<ProviderProfile>;
}

type OAuthLibrary = typeof OAuth;
let library: Promise<OAuthLibrary> | null = null;

/** `oauth4webapi`, imported on first use. */
export function oauthLibrary(): Promise<OAuthLibrary> {
  library ??= import("oauth4webapi");
  return library;
}

/** How long one request to a provider may take. */
const REQUEST_TIMEOUT_MS = 10_000;
/** How long a discovery document is reused. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** The personal accounts' tenant of Microsoft Entra ID. */
const MICROSOFT_CONSUMERS = "9188040d-6c67-4c5b-b112-36a304b66dad";
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether an error is a network failure or a timeout (not an answer the provider gave). */
function unreachable(error: unknown): boolean {
  if (error instanceof DOMException) {
    return error.name === "TimeoutError" || error.name === "AbortError";
  }
  return error instanceof TypeError &&
    !String((error as { code?: unknown }).code ?? "").startsWith("ERR_");
}

/** Logs why a provider step failed (the operator's clue; never a token or a secret). */
function logFailure(provider: ResolvedOAuthProvider, step: string, error: unknown): void {
  const said = (error as { error?: unknown })?.error;
  const detail = (typeof said === "string" ? `${said}: ` : "") +
    (error instanceof Error ? error.message : String(error));
  console.warn(`[auth] oauth provider "${provider.id}": ${step} failed: ${detail.slice(0, 300)}`);
}

/** The `OAUTH_*` refusal of a failed step. */
function refusal(provider: ResolvedOAuthProvider, step: string, error: unknown): Error {
  logFailure(provider, step, error);
  if (error instanceof HttpError) return error;
  if (unreachable(error)) {
    return authError("OAUTH_UNAVAILABLE", `The provider could not be reached (${step})`);
  }
  return authError("OAUTH_FAILED", `The provider's answer was refused (${step})`);
}

/** The payload of a JWT, read only to choose the expected issuer (the library verifies it). */
function unverifiedClaim(jwt: unknown, claim: string): unknown {
  if (typeof jwt !== "string") return undefined;
  try {
    const part = jwt.split(".")[1] ?? "";
    const json = atob(part.replaceAll("-", "+").replaceAll("_", "/"));
    return (JSON.parse(json) as Record<string, unknown>)[claim];
  } catch {
    return undefined;
  }
}

/** The provider's address, normalized like at sign-up; `null` when absent or not an address. */
function providerEmail(value: unknown): string | null {
  const parsed = emailSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The protocol of one provider (its discovery document cached for an hour). */
export function providerProtocol(provider: ResolvedOAuthProvider): ProviderProtocol {
  return provider.kind === "github" ? githubProtocol(provider) : oidcProtocol(provider);
}

function requestOptions(lib: OAuthLibrary, provider: ResolvedOAuthProvider) {
  return {
    signal: () => AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    [lib.allowInsecureRequests]: provider.insecure,
  };
}

function clientAuth(
  lib: OAuthLibrary,
  provider: ResolvedOAuthProvider,
  as: OAuth.AuthorizationServer,
) {
  // RFC 8414 / OpenID Connect Discovery: absent means client_secret_basic.
  const methods = as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  return methods.includes("client_secret_basic")
    ? lib.ClientSecretBasic(provider.clientSecret)
    : lib.ClientSecretPost(provider.clientSecret);
}

function authorizationUrl(
  as: OAuth.AuthorizationServer,
  provider: ResolvedOAuthProvider,
  request: AuthorizationRequest,
): string {
  if (!as.authorization_endpoint) throw new TypeError("no authorization_endpoint");
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", provider.clientId);
  url.searchParams.set("redirect_uri", request.redirectUri);
  url.searchParams.set("scope", provider.scopes.join(" "));
  url.searchParams.set("state", request.state);
  url.searchParams.set("code_challenge", request.codeChallenge);
  url.searchParams.set("code_challenge_method", "S256");
  if (request.nonce !== null) url.searchParams.set("nonce", request.nonce);
  return url.href;
}

/** Checks the authorization response: `state`, RFC 9207's `iss`, and the provider's error. */
function checkResponse(
  lib: OAuthLibrary,
  as: OAuth.AuthorizationServer,
  client: OAuth.Client,
  check: CallbackCheck,
): URLSearchParams {
  try {
    return lib.validateAuthResponse(as, client, check.params, check.state);
  } catch (error) {
    if (error instanceof lib.AuthorizationResponseError) {
      throw error.error === "access_denied"
        ? authError("OAUTH_DENIED", "The sign-in was canceled at the provider")
        : authError("OAUTH_DENIED", `The provider refused the sign-in (${error.error})`);
    }
    throw authError("OAUTH_FAILED", "The provider's answer was refused (authorization response)");
  }
}

function oidcProtocol(provider: ResolvedOAuthProvider): ProviderProtocol {
  const issuer = provider.issuer!;
  const client: OAuth.Client = { client_id: provider.clientId };
  const jwks: OAuth.JWKSCacheInput = {};
  let discovered: { as: Promise<OAuth.AuthorizationServer>; at: number } | null = null;

  /** Discovery: the document's `issuer` must be the configured one (Microsoft: its template). */
  async function discover(lib: OAuthLibrary): Promise<OAuth.AuthorizationServer> {
    const response = await lib.discoveryRequest(new URL(issuer), requestOptions(lib, provider));
    let expected = new URL(issuer);
    if (provider.kind === "microsoft") {
      // `common`, `organizations` (and a tenant named by its domain) publish another issuer than
      // the URL they are discovered at: the `{tenantid}` template or the tenant's id.
      const published = (await response.clone().json().catch(() => ({})))?.issuer;
      const origin = new URL(issuer).origin;
      const pattern =
        /^\/(\{tenantid\}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/v2\.0$/;
      if (typeof published === "string" && URL.canParse(published)) {
        const url = new URL(published);
        if (url.origin === origin && pattern.test(decodeURIComponent(url.pathname))) expected = url;
      }
    }
    return await lib.processDiscoveryResponse(expected, response);
  }

  function metadata(lib: OAuthLibrary): Promise<OAuth.AuthorizationServer> {
    if (discovered === null || Date.now() - discovered.at > DISCOVERY_TTL_MS) {
      const as = discover(lib);
      discovered = { as, at: Date.now() };
      // A failure is not kept: the next sign-in tries again.
      as.catch(() => {
        if (discovered?.as === as) discovered = null;
      });
    }
    return discovered.as;
  }

  /** The metadata the ID token is checked against: Microsoft's template filled with its `tid`. */
  async function issuerFor(
    as: OAuth.AuthorizationServer,
    response: Response,
  ): Promise<OAuth.AuthorizationServer> {
    if (provider.kind !== "microsoft" || !as.issuer.includes("{tenantid}")) return as;
    const body = await response.clone().json().catch(() => null);
    const tid = unverifiedClaim(body?.id_token, "tid");
    if (typeof tid !== "string" || !GUID.test(tid)) {
      throw authError("OAUTH_FAILED", "The ID token names no tenant (tid)");
    }
    if (provider.tenant === "organizations" && tid === MICROSOFT_CONSUMERS) {
      throw authError("OAUTH_FAILED", "Personal Microsoft accounts cannot sign in here");
    }
    // The library then requires `iss` to be exactly this, and verifies the signature.
    return { ...as, issuer: as.issuer.replace("{tenantid}", tid) };
  }

  return {
    openid: true,
    async authorizationUrl(request) {
      const lib = await oauthLibrary();
      try {
        return authorizationUrl(await metadata(lib), provider, request);
      } catch (error) {
        logFailure(provider, "discovery", error);
        throw authError("OAUTH_UNAVAILABLE", "The provider could not be reached (discovery)");
      }
    },
    async finish(check) {
      const lib = await oauthLibrary();
      let as: OAuth.AuthorizationServer;
      try {
        as = await metadata(lib);
      } catch (error) {
        logFailure(provider, "discovery", error);
        throw authError("OAUTH_UNAVAILABLE", "The provider could not be reached (discovery)");
      }
      const params = checkResponse(lib, as, client, check);
      const options = requestOptions(lib, provider);
      let step = "code exchange";
      try {
        const response = await lib.authorizationCodeGrantRequest(
          as,
          client,
          clientAuth(lib, provider, as),
          params,
          check.redirectUri,
          check.codeVerifier,
          options,
        );
        const checked = await issuerFor(as, response);
        const tokens = await lib.processAuthorizationCodeResponse(checked, client, response, {
          expectedNonce: check.nonce ?? lib.expectNoNonce,
          requireIdToken: true,
        });
        step = "ID token signature";
        // Over TLS the token endpoint vouches for the ID token; its signature is checked anyway,
        // with the provider's published keys (a forged or `alg: none` token never passes).
        await lib.validateApplicationLevelSignature(checked, response, {
          ...options,
          [lib.jwksCache]: jwks,
        });
        const claims = lib.getValidatedIdTokenClaims(tokens)!;
        let source: Record<string, unknown> = claims;
        if (typeof claims.email !== "string" && checked.userinfo_endpoint) {
          step = "userinfo request";
          const answer = await lib.userInfoRequest(checked, client, tokens.access_token, options);
          source = await lib.processUserInfoResponse(checked, client, claims.sub, answer);
        }
        const verifiedBy = provider.kind === "microsoft"
          ? ["email_verified", "xms_edov"]
          : ["email_verified"];
        const email = providerEmail(source.email);
        return {
          subject: claims.sub,
          email,
          emailVerified: email !== null && verifiedBy.some((claim) => source[claim] === true),
        };
      } catch (error) {
        throw refusal(provider, step, error);
      }
    },
  };
}

interface GitHubEmail {
  email?: unknown;
  primary?: unknown;
  verified?: unknown;
}

function githubProtocol(provider: ResolvedOAuthProvider): ProviderProtocol {
  const web = provider.webOrigin!;
  const api = provider.apiOrigin!;
  const as: OAuth.AuthorizationServer = {
    issuer: web,
    authorization_endpoint: `${web}/login/oauth/authorize`,
    token_endpoint: `${web}/login/oauth/access_token`,
  };
  const client: OAuth.Client = { client_id: provider.clientId };

  async function get(path: string, token: string): Promise<unknown> {
    const response = await fetch(`${api}${path}`, {
      headers: {
        authorization: `Bearer ${token}`,
        accept: "application/vnd.github+json",
        "x-github-api-version": "2022-11-28",
        "user-agent": "fragment-cli",
      },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    return await response.json();
  }

  return {
    openid: false,
    authorizationUrl(request) {
      return Promise.resolve(authorizationUrl(as, provider, request));
    },
    async finish(check) {
      const lib = await oauthLibrary();
      const params = checkResponse(lib, as, client, check);
      let step = "code exchange";
      try {
        // GitHub answers a refused code with 200 and an `error` member: the library refuses it
        // (no access_token), and reads JSON because it asks for it (Accept: application/json).
        const response = await lib.authorizationCodeGrantRequest(
          as,
          client,
          lib.ClientSecretPost(provider.clientSecret),
          params,
          check.redirectUri,
          check.codeVerifier,
          requestOptions(lib, provider),
        );
        const tokens = await lib.processAuthorizationCodeResponse(as, client, response);
        step = "GET /user";
        const user = await get("/user", tokens.access_token) as { id?: unknown };
        if (typeof user?.id !== "number" || !Number.isSafeInteger(user.id) || user.id <= 0) {
          throw new Error("GET /user answered no id");
        }
        step = "GET /user/emails";
        const emails = await get("/user/emails", tokens.access_token);
        const list: GitHubEmail[] = Array.isArray(emails) ? emails : [];
        const primary = list.find((entry) => entry?.primary === true);
        const email = providerEmail(primary?.email);
        return {
          subject: String(user.id),
          email,
          emailVerified: email !== null && primary?.verified === true,
        };
      } catch (error) {
        throw refusal(provider, step, error);
      }
    },
  };
}
