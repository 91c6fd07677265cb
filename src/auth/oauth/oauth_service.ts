/**
 * The sign-in flow with a provider (OAuth 2 authorization code with PKCE `S256`, and OpenID
 * Connect's `nonce`). `GET /oauth/:provider/authorize` (or `POST /oauth/:provider/link` for the
 * signed-in user) stores the flow under the SHA-256 of a fresh `state` and answers the provider's
 * URL with a short-lived `HttpOnly` cookie holding the PKCE verifier: the flow is bound to this
 * browser, and the code is worth nothing without that cookie. `GET /oauth/:provider/callback`
 * spends the state (single use) whatever happens next, checks the cookie against it, lets the
 * protocol check the answer and redeem the code, then signs in (or links) and answers 303 to
 * `redirectTo`, with `?error=<code>` on failure, or, for a user with a second factor, with
 * `?twoFactorChallenge=<challenge>&twoFactorMethods=<methods>` and no credential. The callback
 * URL sent to the provider is built from `publicOrigin`, never from `Host`.
 *
 * @module
 */

import { HttpError } from "../../core/mod.ts";
import type { CredentialRateLimits } from "../abuse/credential_rate_limits.ts";
import type { ClientInfo } from "../account/account_service.ts";
import { withParam } from "../account/email_links.ts";
import type { Actor } from "../actor.ts";
import { authError, notFound } from "../errors.ts";
import type { Authenticator } from "../sessions/authenticator.ts";
import { needsSecureCookie, readCookie, sessionCookie } from "../sessions/cookies.ts";
import { hashToken, secretsEqual } from "../sessions/tokens.ts";
import type { SqlAdapter } from "../../sql/mod.ts";
import type { AuthTableNames } from "../tables.ts";
import type { IdentityService } from "./identity_service.ts";
import type {
  AuthOAuthCallbackQuery,
  AuthOAuthLink,
  AuthOAuthProviderInfo,
  AuthOAuthRedirect,
} from "./oauth_inputs.ts";
import type { ResolvedOAuthOptions } from "./oauth_options.ts";
import { oauthLibrary, type ProviderProtocol, providerProtocol } from "./oauth_protocol.ts";
import { insertOAuthState, takeOAuthState } from "./oauth_state_store.ts";
import type { OriginPolicy } from "../http/origin_check.ts";
import { checkRedirectTarget } from "../http/redirect_target.ts";
import { callbackOrigin } from "./callback_origin.ts";
import type { SecondStepRequired } from "../two_factor/second_step.ts";

/** The second step a provider sign-in sends the browser back with: its challenge and ways. */
type SecondStep = Pick<SecondStepRequired, "challenge" | "methods">;

/**
 * The cookie holding a flow's PKCE verifier, which binds it to the browser (only its SHA-256 is
 * stored): `HttpOnly; SameSite=Lax; Path=<mountRoute>/oauth; Max-Age=600`.
 *
 * @example
 * ```ts
 * import { OAUTH_FLOW_COOKIE } from "@app/fragment-cli/auth";
 *
 * console.log(OAUTH_FLOW_COOKIE); // "service_oauth"
 * ```
 */
export const OAUTH_FLOW_COOKIE = "service_oauth";
/** How long a flow may take, from the redirect to the provider to the callback: 10 minutes. */
export const OAUTH_STATE_TTL_SECONDS = 600;

/** The provider operations of one module instance. */
export interface OAuthService {
  /** `GET /oauth/providers`. */
  providers(): { providers: AuthOAuthProviderInfo[] };
  /** `GET /oauth/:provider/authorize`: where the browser goes (302 to the provider). */
  authorize(
    input: { provider: string; redirectTo?: string | undefined },
    client: ClientInfo,
  ): Promise<AuthOAuthRedirect>;
  /** `POST /oauth/:provider/link`: the provider's URL, and the cookie binding the flow. */
  link(
    actor: Actor,
    input: { provider: string; redirectTo?: string | undefined },
    client: ClientInfo,
  ): Promise<AuthOAuthLink & { setCookie: string }>;
  /** `GET /oauth/:provider/callback`: where the browser goes (303 back to the app). */
  callback(
    input: { provider: string } & AuthOAuthCallbackQuery,
    client: ClientInfo,
  ): Promise<AuthOAuthRedirect>;
}

/** What {@link oauthService} needs. */
export interface OAuthServiceOptions extends OriginPolicy {
  db: SqlAdapter;
  tables: AuthTableNames;
  options: ResolvedOAuthOptions;
  /** The module's mount (`/api/auth`): the callback's path and the cookie's. */
  mountRoute: string;
  limits: CredentialRateLimits;
  authenticator: Authenticator;
  identities: IdentityService;
}

/** The flow's cookie (`Path` limited to the provider routes), or its deletion (`verifier` null). */
function flowCookie(origin: string, mountRoute: string, verifier: string | null): string {
  return [
    `${OAUTH_FLOW_COOKIE}=${verifier ?? ""}`,
    `Path=${mountRoute}/oauth`,
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${verifier === null ? 0 : OAUTH_STATE_TTL_SECONDS}`,
    ...(needsSecureCookie(origin) ? ["Secure"] : []),
  ].join("; ");
}

/** Builds the provider operations of one module instance. */
export function oauthService(deps: OAuthServiceOptions): OAuthService {
  const { db, tables, options, mountRoute, limits } = deps;
  const protocols = new Map<string, ProviderProtocol>();
  for (const [id, provider] of options.providers) protocols.set(id, providerProtocol(provider));

  function protocolOf(id: string): ProviderProtocol {
    const protocol = protocols.get(id);
    if (!protocol) throw notFound("Provider");
    return protocol;
  }

  /** `redirectTo` as given (checked), or the configured default; 400 `INVALID_REDIRECT`. */
  function redirectTarget(given: string | undefined, request: Request | null): string {
    if (given === undefined) return options.redirectTo;
    const origin = request === null ? null : new URL(request.url).origin;
    return checkRedirectTarget(given, deps, origin);
  }

  /** Stores a new flow; the provider's URL and the cookie that binds it to the browser. */
  async function start(
    providerId: string,
    redirectTo: string,
    link: { userId: string; sessionId: string } | null,
    client: ClientInfo,
  ): Promise<{ url: string; setCookie: string }> {
    const protocol = protocolOf(providerId);
    return await limits.attempt({
      action: "oauth-start",
      ...client,
      email: null,
      countOnlyFailures: false,
      run: async () => {
        const origin = callbackOrigin(deps.publicOrigin, client.request);
        if (origin === null) {
          throw authError(
            "OAUTH_UNAVAILABLE",
            "Sign-in with a provider needs publicOrigin (the callback URL is built from it)",
          );
        }
        const redirectUri = `${origin}${mountRoute}/oauth/${providerId}/callback`;
        const lib = await oauthLibrary();
        const state = lib.generateRandomState();
        const verifier = lib.generateRandomCodeVerifier();
        const nonce = protocol.openid ? lib.generateRandomNonce() : null;
        // Discovery first: a provider that cannot be reached leaves no row behind.
        const url = await protocol.authorizationUrl({
          redirectUri,
          state,
          codeChallenge: await lib.calculatePKCECodeChallenge(verifier),
          nonce,
        });
        await insertOAuthState(db, tables, hashToken(state), {
          provider: providerId,
          verifierHash: hashToken(verifier),
          nonce,
          redirectUri,
          redirectTo,
          purpose: link === null ? "sign-in" : "link",
          userId: link?.userId ?? null,
          sessionId: link?.sessionId ?? null,
        }, OAUTH_STATE_TTL_SECONDS);
        return { url, setCookie: flowCookie(origin, mountRoute, verifier) };
      },
    });
  }

  /**
   * The callback's work once the state is known good: the cookies to set, or, for a user with a
   * second factor, the challenge the browser takes back to the app (and no credential).
   */
  async function complete(
    providerId: string,
    input: AuthOAuthCallbackQuery,
    client: ClientInfo,
    found: (redirectTo: string) => void,
  ): Promise<{ cookies: string[]; challenge: SecondStep | null }> {
    const request = client.request;
    if (!input.state) throw authError("INVALID_OAUTH_STATE", "The provider's answer has no state");
    const row = await takeOAuthState(db, tables, hashToken(input.state), providerId);
    if (row === null) {
      throw authError("INVALID_OAUTH_STATE", "This sign-in is unknown, was used, or expired");
    }
    found(row.redirectTo);
    const verifier = request === null ? null : readCookie(request, OAUTH_FLOW_COOKIE);
    if (verifier === null || !secretsEqual(hashToken(verifier), row.verifierHash)) {
      throw authError("INVALID_OAUTH_STATE", "This sign-in was started in another browser");
    }
    if (row.purpose === "link") {
      // Only the session that asked may complete a connection (no link CSRF).
      const current = request === null ? null : await deps.authenticator.lookup(request);
      if (current?.session.id !== row.sessionId || current.user.id !== row.userId) {
        throw authError(
          "LINK_SESSION_MISMATCH",
          "This connection was started in another session: start it again",
        );
      }
    }
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(input)) {
      if (typeof value === "string" && name !== "provider") params.set(name, value);
    }
    const profile = await protocolOf(providerId).finish({
      params,
      state: input.state,
      redirectUri: row.redirectUri,
      codeVerifier: verifier,
      nonce: row.nonce,
    });
    if (row.purpose === "link") {
      await deps.identities.link(row.userId!, providerId, profile);
      return { cookies: [], challenge: null };
    }
    const userAgent = request?.headers.get("user-agent") ?? null;
    const outcome = await deps.identities.signIn(providerId, profile, {
      userAgent,
      redirectTo: row.redirectTo,
    });
    if ("challenge" in outcome) {
      return { cookies: [], challenge: { challenge: outcome.challenge, methods: outcome.methods } };
    }
    const origin = new URL(row.redirectUri).origin;
    return {
      cookies: [sessionCookie(origin, outcome.token, outcome.session.expiresAt)],
      challenge: null,
    };
  }

  return {
    providers() {
      return {
        providers: [...options.providers.values()].map(({ id, name }) => ({ id, name })),
      };
    },
    async authorize({ provider, redirectTo }, client) {
      protocolOf(provider);
      const target = redirectTarget(redirectTo, client.request);
      try {
        const { url, setCookie } = await start(provider, target, null, client);
        return { status: 302, location: url, setCookies: [setCookie], error: null };
      } catch (error) {
        // A navigation: the app shows why (rate limit, provider down) rather than a JSON page.
        if (!(error instanceof HttpError)) throw error;
        const location = withParam(target, "error", error.code);
        return { status: 303, location, setCookies: [], error: error.code };
      }
    },
    async link({ user, session }, { provider, redirectTo }, client) {
      protocolOf(provider);
      if (session === null) {
        throw new TypeError(
          "linkOAuthProvider() binds the flow to a session: give the actor as { token } or the " +
            "context of api.getRequestAuth()",
        );
      }
      const target = redirectTarget(redirectTo, client.request);
      return await start(provider, target, { userId: user.id, sessionId: session.id }, client);
    },
    async callback(input, client) {
      protocolOf(input.provider);
      const origin = callbackOrigin(deps.publicOrigin, client.request) ??
        (client.request ? new URL(client.request.url).origin : "https://invalid");
      const cleared = flowCookie(origin, mountRoute, null);
      let redirectTo = options.redirectTo;
      try {
        const { cookies, challenge } = await limits.attempt({
          action: "oauth-callback",
          ...client,
          email: null,
          countOnlyFailures: false,
          run: () => complete(input.provider, input, client, (found) => (redirectTo = found)),
        });
        // A user with a second factor: the app answers the challenge (POST /sign-in/two-factor)
        // with one of the ways listed, as after a password.
        const location = challenge === null ? redirectTo : withParam(
          withParam(redirectTo, "twoFactorChallenge", challenge.challenge),
          "twoFactorMethods",
          challenge.methods.join(","),
        );
        return { status: 303, location, setCookies: [cleared, ...cookies], error: null };
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        const location = withParam(redirectTo, "error", error.code);
        return { status: 303, location, setCookies: [cleared], error: error.code };
      }
    },
  };
}
