/**
 * The provider operations: the configured providers, the sign-in flow (authorize, then the
 * provider's callback), connecting a provider to the signed-in account, and the account's
 * connected identities. Present only with `auth({ oauth })`. Declarations only (see
 * `http/operation.ts`).
 *
 * @module
 */

import type { AuthApiClient } from "../api_inputs.ts";
import type { AuthActor } from "../actor.ts";
import type { AuthOperation } from "../http/operation.ts";
import {
  type AuthIdentity,
  type AuthOAuthCallbackQuery,
  type AuthOAuthLink,
  type AuthOAuthLinkBody,
  type AuthOAuthProviderInfo,
  type AuthOAuthRedirect,
  authorizeQuery,
  callbackQuery,
  identitiesResponse,
  identityIdParams,
  linkBody,
  oauthLinkResponse,
  providerParams,
  providersResponse,
} from "./oauth_inputs.ts";

/** The route's answer to a redirect: its status, `Location` and cookies; no referrer leaves. */
function redirect(result: AuthOAuthRedirect): Response {
  const headers = new Headers({ location: result.location, "referrer-policy": "no-referrer" });
  for (const cookie of result.setCookies) headers.append("set-cookie", cookie);
  return new Response(null, { status: result.status, headers });
}

/** `GET /oauth/providers`: the configured providers, for the sign-in screen's buttons. */
export const listOAuthProviders: AuthOperation<{
  method: "GET";
  path: "/oauth/providers";
  anonymous: true;
  response: { providers: AuthOAuthProviderInfo[] };
  api: () => Promise<{ providers: AuthOAuthProviderInfo[] }>;
}> = {
  method: "GET",
  path: "/oauth/providers",
  summary: "The configured sign-in providers (id and name)",
  guard: "anonymous",
  feature: "oauth",
  responses: { 200: providersResponse },
  call: (services) => services.oauth.providers(),
};

/**
 * `GET /oauth/:provider/authorize?redirectTo=…`: 302 to the provider, with the cookie binding
 * the flow to this browser; 303 to `redirectTo` with `?error=<code>` when it cannot start.
 */
export const startOAuthSignIn: AuthOperation<{
  method: "GET";
  path: "/oauth/:provider/authorize";
  anonymous: true;
  params: { provider: string };
  query: { redirectTo?: string | undefined };
  response: null;
  result: AuthOAuthRedirect;
  errors: "INVALID_REDIRECT" | "NOT_FOUND";
  api: (
    input: { provider: string; redirectTo?: string | undefined },
    client?: AuthApiClient,
  ) => Promise<AuthOAuthRedirect>;
}> = {
  method: "GET",
  path: "/oauth/:provider/authorize",
  summary: "Sign in with a provider: 302 to it (PKCE S256, state, nonce), then back to redirectTo",
  guard: "anonymous",
  feature: "oauth",
  params: providerParams,
  query: authorizeQuery,
  responses: { 302: null, 303: null },
  errors: { 400: ["INVALID_REDIRECT"], 404: ["NOT_FOUND"] },
  call: (services, input, _actor, client) => services.oauth.authorize(input, client),
  reply: redirect,
};

/**
 * `GET /oauth/:provider/callback`: where the provider sends the browser back. Signs in (sets
 * `service_auth`) or connects the provider, then 303 to `redirectTo`; on failure 303 to
 * `redirectTo` with `?error=<code>`; for a user with a second factor, 303 to `redirectTo` with
 * `?twoFactorChallenge=<challenge>&twoFactorMethods=<methods>` and no credential.
 */
export const completeOAuth: AuthOperation<{
  method: "GET";
  path: "/oauth/:provider/callback";
  anonymous: true;
  params: { provider: string };
  query: AuthOAuthCallbackQuery;
  response: null;
  result: AuthOAuthRedirect;
  errors: "NOT_FOUND";
  api: (
    input: { provider: string } & AuthOAuthCallbackQuery,
    client?: AuthApiClient,
  ) => Promise<AuthOAuthRedirect>;
}> = {
  method: "GET",
  path: "/oauth/:provider/callback",
  summary: "The provider's redirect back: sign in or connect, then 303 to redirectTo (?error=…)",
  guard: "anonymous",
  feature: "oauth",
  params: providerParams,
  query: callbackQuery,
  responses: { 303: null },
  errors: { 404: ["NOT_FOUND"] },
  call: (services, input, _actor, client) => services.oauth.callback(input, client),
  reply: redirect,
};

/**
 * `POST /oauth/:provider/link {redirectTo?}`: the provider's URL to connect it to the caller's
 * account (the answer sets the cookie binding the flow to this browser; only this session may
 * complete it).
 */
export const linkOAuthProvider: AuthOperation<{
  method: "POST";
  path: "/oauth/:provider/link";
  params: { provider: string };
  body: AuthOAuthLinkBody;
  response: AuthOAuthLink;
  result: AuthOAuthLink & { setCookie: string };
  errors: "INVALID_REDIRECT" | "NOT_FOUND" | "RATE_LIMITED" | "OAUTH_UNAVAILABLE";
  api: (
    actor: AuthActor,
    input: { provider: string } & AuthOAuthLinkBody,
    client?: AuthApiClient,
  ) => Promise<AuthOAuthLink & { setCookie: string }>;
}> = {
  method: "POST",
  path: "/oauth/:provider/link",
  summary: "Connect a provider to the caller's account: the provider's URL to navigate to",
  guard: "signedIn",
  feature: "oauth",
  params: providerParams,
  body: linkBody,
  responses: { 200: oauthLinkResponse },
  errors: {
    400: ["INVALID_REDIRECT"],
    404: ["NOT_FOUND"],
    429: ["RATE_LIMITED"],
    503: ["OAUTH_UNAVAILABLE"],
  },
  call: (services, input, actor, client) => services.oauth.link(actor, input, client),
  reply: ({ url, setCookie }) => {
    const response = Response.json({ url });
    response.headers.set("set-cookie", setCookie);
    return response;
  },
};

/** `GET /identities`: the caller's connected provider accounts, oldest first. */
export const listIdentities: AuthOperation<{
  method: "GET";
  path: "/identities";
  response: { identities: AuthIdentity[] };
  api: (actor: AuthActor) => Promise<{ identities: AuthIdentity[] }>;
}> = {
  method: "GET",
  path: "/identities",
  summary: "The caller's connected provider accounts",
  guard: "signedIn",
  feature: "oauth",
  responses: { 200: identitiesResponse },
  call: (services, _input, actor) => services.identities.list(actor),
};

/**
 * `DELETE /identities/:identityId`: disconnects one of the caller's provider accounts (409
 * `LAST_SIGN_IN_METHOD` when no other way in would remain).
 */
export const unlinkIdentity: AuthOperation<{
  method: "DELETE";
  path: "/identities/:identityId";
  params: { identityId: string };
  response: null;
  result: void;
  errors: "NOT_FOUND" | "LAST_SIGN_IN_METHOD";
  api: (actor: AuthActor, input: { identityId: string }) => Promise<void>;
}> = {
  method: "DELETE",
  path: "/identities/:identityId",
  summary: "Disconnect a provider account (never the account's last way in)",
  guard: "signedIn",
  feature: "oauth",
  params: identityIdParams,
  responses: { 204: null },
  errors: { 404: ["NOT_FOUND"], 409: ["LAST_SIGN_IN_METHOD"] },
  call: (services, input, actor) => services.identities.unlink(actor, input),
};
