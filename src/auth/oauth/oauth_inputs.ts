/**
 * The inputs and answers of the provider operations as zod schemas: the routes parse with them,
 * `authModule.api` its arguments, the client and the OpenAPI document read their types.
 *
 * @module
 */

import { z } from "zod";
import { exactSchema } from "../http/exact_schema.ts";
import { type ResponseSchema, timestamp } from "../http/responses.ts";

/**
 * A configured provider, as `GET /oauth/providers` lists it.
 *
 * @example A "Continue with …" button per provider
 * ```ts
 * import type { AuthOAuthProviderInfo } from "@app/fragment-cli/auth";
 *
 * const google: AuthOAuthProviderInfo = { id: "google", name: "Google" };
 * const label = `Continue with ${google.name}`;
 * ```
 */
export interface AuthOAuthProviderInfo {
  /** The id the routes name (`/oauth/<id>/authorize`). */
  id: string;
  /** The name to show. */
  name: string;
}

/** The answer of `GET /oauth/providers`. */
export const providersResponse: ResponseSchema<{ providers: AuthOAuthProviderInfo[] }> =
  exactSchema<{ providers: AuthOAuthProviderInfo[] }>()(z.object({
    providers: z.array(z.object({ id: z.string(), name: z.string() })),
  }));

/** The path parameter naming a provider. */
export const providerParams: z.ZodType<{ provider: string }, { provider: string }> = exactSchema<
  { provider: string }
>()(z.object({ provider: z.string().max(64) }));

/** Where the browser goes once the flow is over (a path, or a URL on an allowed origin). */
const redirectTo = z.string().max(2048).optional();

/** The query of `GET /oauth/:provider/authorize`. */
export const authorizeQuery: z.ZodType<
  { redirectTo?: string | undefined },
  { redirectTo?: string | undefined }
> = exactSchema<{ redirectTo?: string | undefined }>()(z.object({ redirectTo }));

/**
 * The body of `POST /oauth/:provider/link`.
 *
 * @example
 * ```ts
 * import type { AuthOAuthLinkBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthOAuthLinkBody = { redirectTo: "/#account" };
 * ```
 */
export interface AuthOAuthLinkBody {
  /** Where the browser goes once connected (or with `?error=<code>`). @default oauth.redirectTo */
  redirectTo?: string | undefined;
}

/** The body of `POST /oauth/:provider/link`. */
export const linkBody: z.ZodType<AuthOAuthLinkBody, AuthOAuthLinkBody> = exactSchema<
  AuthOAuthLinkBody
>()(z.strictObject({ redirectTo }));

/**
 * The answer of `POST /oauth/:provider/link`: the provider's authorization URL to send the browser
 * to (the answer also sets the cookie that binds the flow to this browser).
 *
 * @example
 * ```ts
 * import type { AuthOAuthLink } from "@app/fragment-cli/auth";
 *
 * function go(link: AuthOAuthLink) {
 *   location.assign(link.url);
 * }
 * ```
 */
export interface AuthOAuthLink {
  /** The provider's authorization URL. */
  url: string;
}

/** The answer of `POST /oauth/:provider/link`. */
export const oauthLinkResponse: ResponseSchema<AuthOAuthLink> = exactSchema<AuthOAuthLink>()(
  z.object({ url: z.string().describe("The provider's authorization URL: navigate to it") }),
);

/**
 * What the provider sends back to `GET /oauth/:provider/callback` (RFC 6749, 4.1.2; RFC 9207).
 *
 * @example Finish a sign-in from a route of your own
 * ```ts
 * import type { AuthModule, AuthOAuthCallbackQuery } from "@app/fragment-cli/auth";
 *
 * async function finish(authModule: AuthModule, request: Request) {
 *   const query: AuthOAuthCallbackQuery = Object.fromEntries(new URL(request.url).searchParams);
 *   return await authModule.api.completeOAuth({ provider: "google", ...query }, { request });
 * }
 * ```
 */
export interface AuthOAuthCallbackQuery {
  /** The authorization code. */
  code?: string | undefined;
  /** The `state` the flow was started with. */
  state?: string | undefined;
  /** The issuer that answered (RFC 9207), when the provider sends it. */
  iss?: string | undefined;
  /** The provider's refusal (`access_denied`, …) instead of a code. */
  error?: string | undefined;
  /** The provider's words about its refusal. */
  error_description?: string | undefined;
}

const parameter = z.string().max(4096).optional();

/** The query of `GET /oauth/:provider/callback` (providers add others: they are ignored). */
export const callbackQuery: z.ZodType<AuthOAuthCallbackQuery, AuthOAuthCallbackQuery> = exactSchema<
  AuthOAuthCallbackQuery
>()(z.object({
  code: parameter,
  state: parameter,
  iss: parameter,
  error: parameter,
  error_description: parameter,
}));

/**
 * Where the authorize and callback routes send the browser, as `authModule.api` answers it: the
 * route answers `status` with `Location: location` and these `Set-Cookie` headers.
 *
 * @example Relay it from a route of your own
 * ```ts
 * import type { AuthOAuthRedirect } from "@app/fragment-cli/auth";
 *
 * function toResponse(redirect: AuthOAuthRedirect): Response {
 *   const headers = new Headers({ location: redirect.location });
 *   for (const cookie of redirect.setCookies) headers.append("set-cookie", cookie);
 *   return new Response(null, { status: redirect.status, headers });
 * }
 * ```
 */
export interface AuthOAuthRedirect {
  /** 302 to the provider (authorize), 303 back to the app (callback). */
  status: 302 | 303;
  /** The provider's authorization URL, or `redirectTo` (with `error=<code>` on failure). */
  location: string;
  /** `Set-Cookie` values: the flow's cookie, the credential's after a sign-in. */
  setCookies: string[];
  /** The error code the browser is sent back with, or `null`. */
  error: string | null;
}

/**
 * An account at a provider linked to the user, as `GET /identities` lists it.
 *
 * @example
 * ```ts
 * import type { AuthIdentity } from "@app/fragment-cli/auth";
 *
 * const identity: AuthIdentity = {
 *   id: "0f8e3c52-6d1b-4f4e-9a7e-2b1c3d4e5f60",
 *   provider: "google",
 *   email: "ada@gmail.com",
 *   createdAt: "2026-01-01T12:00:00.000Z",
 * };
 * ```
 */
export interface AuthIdentity {
  /** The identity's id (`DELETE /identities/:identityId`). */
  id: string;
  /** The provider's id in `oauth.providers`. */
  provider: string;
  /** The address the provider gave at the last sign-in, or `null`. */
  email: string | null;
  /** When it was linked (ISO 8601). */
  createdAt: string;
}

/** The answer of `GET /identities`. */
export const identitiesResponse: ResponseSchema<{ identities: AuthIdentity[] }> = exactSchema<
  { identities: AuthIdentity[] }
>()(z.object({
  identities: z.array(z.object({
    id: z.string(),
    provider: z.string(),
    email: z.string().nullable(),
    createdAt: timestamp,
  })),
}));

/** The path parameter of `DELETE /identities/:identityId`. */
export const identityIdParams: z.ZodType<{ identityId: string }, { identityId: string }> =
  exactSchema<{ identityId: string }>()(z.object({ identityId: z.string().max(100) }));
