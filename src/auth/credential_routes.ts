/**
 * The credential routes: sign-up, sign-in, sign-out, the current session and `GET /me`. Each
 * parses its input (by the schemas of `credential_inputs.ts`, in the route guards) and calls the
 * account service; the routes add only what is HTTP: the `service_auth` cookie.
 *
 * @module
 */

import type { Route } from "../core/mod.ts";
import { type AccountService, credentialBody, type IssuedCredential } from "./account_service.ts";
import { clearedSessionCookie, sessionCookie } from "./cookies.ts";
import { signInBody, signUpBody } from "./credential_inputs.ts";
import type { MeReader } from "./me/mod.ts";
import { deploymentOrigin } from "./origin_check.ts";
import { credentialResponse, meResponse, sessionResponse } from "./responses.ts";
import { authedRoute, type AuthRouteDeps, publicRoute } from "./route_guards.ts";

/** What the credential routes need. */
export interface CredentialRoutesDeps extends AuthRouteDeps {
  accounts: AccountService;
  /** The `/me` answer as JSON text (see `me/mod.ts`). */
  me: MeReader;
}

function credentialAnswer(origin: string, issued: IssuedCredential): Response {
  const response = Response.json(credentialBody(issued));
  response.headers.set(
    "set-cookie",
    sessionCookie(origin, issued.token, issued.session.expiresAt),
  );
  return response;
}

/** The credential routes of one module instance. */
export function credentialRoutes(deps: CredentialRoutesDeps): Route[] {
  const { accounts } = deps;
  return [
    publicRoute(deps, {
      method: "POST",
      path: "/sign-up",
      summary: "Create an account and sign in (sets the service_auth cookie)",
      body: signUpBody,
      responses: { 200: credentialResponse },
      errors: { 409: ["EMAIL_TAKEN"], 429: ["RATE_LIMITED"], 503: ["SERVICE_BUSY"] },
      handler: async ({ body, request, remoteAddress }) =>
        credentialAnswer(
          deploymentOrigin(request, deps.publicOrigin),
          await accounts.signUp(body, { request, remoteAddress }),
        ),
    }),
    publicRoute(deps, {
      method: "POST",
      path: "/sign-in",
      summary: "Sign in with email and password (sets the service_auth cookie)",
      body: signInBody,
      responses: { 200: credentialResponse },
      errors: { 401: ["INVALID_CREDENTIALS"], 429: ["RATE_LIMITED"], 503: ["SERVICE_BUSY"] },
      handler: async ({ body, request, remoteAddress }) =>
        credentialAnswer(
          deploymentOrigin(request, deps.publicOrigin),
          await accounts.signIn(body, { request, remoteAddress }),
        ),
    }),
    authedRoute(deps, {
      method: "POST",
      path: "/sign-out",
      summary: "End the session of the credential (clears the cookie)",
      responses: { 204: null },
      handler: async ({ auth, request }) => {
        await accounts.signOut(auth);
        const response = new Response(null, { status: 204 });
        response.headers.set(
          "set-cookie",
          clearedSessionCookie(deploymentOrigin(request, deps.publicOrigin)),
        );
        return response;
      },
    }),
    authedRoute(deps, {
      method: "GET",
      path: "/session",
      summary: "The current session's user and expiry",
      responses: { 200: sessionResponse },
      handler: ({ auth }) => accounts.session(auth),
    }),
    authedRoute(deps, {
      method: "GET",
      path: "/me",
      summary: "The user, their organizations, active organization and pending invitations",
      responses: { 200: meResponse },
      handler: async ({ auth }) =>
        new Response(await deps.me(auth), { headers: { "content-type": "application/json" } }),
    }),
  ];
}
