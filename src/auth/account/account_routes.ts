/**
 * The routes of the account lifecycle (in the current route style: one declaration per route,
 * each parsing its input in the route guards and calling the lifecycle services), and
 * `GET /verify-email`, the page a verification link opens: it verifies and redirects (303) to
 * the app with the outcome in the URL.
 *
 * @module
 */

import { z } from "zod";
import { HttpError, type Route } from "../../core/mod.ts";
import type { AccountService } from "../account_service.ts";
import { clearedSessionCookie } from "../cookies.ts";
import { deploymentOrigin } from "../origin_check.ts";
import { authedRoute, type AuthRouteDeps, created, publicRoute } from "../route_guards.ts";
import {
  changeEmailBody,
  changeEmailResponse,
  changePasswordBody,
  changePasswordResponse,
  confirmEmailChangeBody,
  deleteAccountBody,
  deleteAccountResponse,
  forgotPasswordBody,
  forgotPasswordResponse,
  listSessionsResponse,
  resetPasswordBody,
  revokedSessionsResponse,
  sessionIdParams,
  userAnswerResponse,
} from "./account_inputs.ts";
import type { EmailLinkBuilder } from "./email_links.ts";
import type { AccountLifecycle } from "./lifecycle.ts";

const verifyQuery: z.ZodType<{ token?: string | undefined }, { token?: string | undefined }> = z
  .object({ token: z.string().max(512).optional() });

/** What the account routes need. */
export interface AccountRoutesDeps extends AuthRouteDeps {
  lifecycle: AccountLifecycle;
  accounts: AccountService;
  links: EmailLinkBuilder;
}

/** `body` as JSON with `status`, clearing the session cookie (the credential is gone). */
function signedOutAnswer(deps: AuthRouteDeps, request: Request, body: unknown): Response {
  const response = Response.json(body);
  response.headers.set(
    "set-cookie",
    clearedSessionCookie(deploymentOrigin(request, deps.publicOrigin)),
  );
  return response;
}

const VERIFY_OUTCOMES: Record<string, string> = {
  INVALID_VERIFICATION_TOKEN: "invalid",
  VERIFICATION_TOKEN_EXPIRED: "expired",
  RATE_LIMITED: "rate-limited",
};

/** The account lifecycle routes of one module instance. */
export function accountRoutes(deps: AccountRoutesDeps): Route[] {
  const { lifecycle, accounts, links } = deps;
  return [
    publicRoute(deps, {
      method: "GET",
      path: "/verify-email",
      summary: "The verification link: verify the address, then redirect (303) to the app",
      query: verifyQuery,
      responses: { 303: null },
      handler: async ({ query, request, remoteAddress }) => {
        let outcome = "verified";
        try {
          await accounts.verifyEmail({ token: query.token ?? "" }, { request, remoteAddress });
        } catch (error) {
          const code = error instanceof HttpError ? VERIFY_OUTCOMES[error.code] : undefined;
          if (code === undefined) throw error;
          outcome = code;
        }
        return new Response(null, {
          status: 303,
          headers: { location: links.afterVerification(outcome), "referrer-policy": "no-referrer" },
        });
      },
    }),
    publicRoute(deps, {
      method: "POST",
      path: "/password/forgot",
      summary: "Mail a password reset link (the same 202 whether or not the account exists)",
      body: forgotPasswordBody,
      responses: { 202: forgotPasswordResponse },
      errors: { 429: ["RATE_LIMITED"] },
      handler: async ({ body, request, remoteAddress }) =>
        created(await lifecycle.password.forgot(body, { request, remoteAddress }), 202),
    }),
    publicRoute(deps, {
      method: "POST",
      path: "/password/reset",
      summary: "Set a new password with the mailed token; every session of the user ends",
      body: resetPasswordBody,
      responses: { 200: userAnswerResponse },
      errors: {
        400: ["INVALID_RESET_TOKEN"],
        410: ["RESET_TOKEN_EXPIRED"],
        429: ["RATE_LIMITED"],
        503: ["SERVICE_BUSY"],
      },
      handler: async ({ body, request, remoteAddress }) =>
        signedOutAnswer(
          deps,
          request,
          await lifecycle.password.reset(body, { request, remoteAddress }),
        ),
    }),
    authedRoute(deps, {
      method: "POST",
      path: "/password/change",
      summary: "Change the password (the current one is checked like a sign-in)",
      body: changePasswordBody,
      responses: { 200: changePasswordResponse },
      errors: { 401: ["INVALID_CREDENTIALS"], 429: ["RATE_LIMITED"], 503: ["SERVICE_BUSY"] },
      handler: ({ auth, body, request, remoteAddress }) =>
        lifecycle.password.change(auth, body, { request, remoteAddress }),
    }),
    authedRoute(deps, {
      method: "GET",
      path: "/sessions",
      summary: "The caller's sessions (never their tokens), the most recently used first",
      responses: { 200: listSessionsResponse },
      handler: ({ auth }) => lifecycle.sessions.list(auth),
    }),
    authedRoute(deps, {
      method: "POST",
      path: "/sessions/revoke-others",
      summary: "Sign out every session of the caller but this one",
      responses: { 200: revokedSessionsResponse },
      handler: ({ auth }) => lifecycle.sessions.revokeOthers(auth),
    }),
    authedRoute(deps, {
      method: "DELETE",
      path: "/sessions/:sessionId",
      summary: "Sign out one session of the caller (another user's id: 404)",
      params: sessionIdParams,
      responses: { 204: null },
      errors: { 404: ["NOT_FOUND"] },
      handler: ({ auth, params }) => lifecycle.sessions.revoke(auth, params),
    }),
    authedRoute(deps, {
      method: "POST",
      path: "/email/change",
      summary: "Mail a confirmation link to a new address (202)",
      body: changeEmailBody,
      responses: { 202: changeEmailResponse },
      errors: {
        401: ["INVALID_CREDENTIALS"],
        409: ["EMAIL_TAKEN"],
        429: ["RATE_LIMITED"],
        503: ["SERVICE_BUSY"],
      },
      handler: async ({ auth, body, request, remoteAddress }) =>
        created(await lifecycle.email.request(auth, body, { request, remoteAddress }), 202),
    }),
    publicRoute(deps, {
      method: "POST",
      path: "/email/change/confirm",
      summary: "Switch to the new address with the token mailed to it",
      body: confirmEmailChangeBody,
      responses: { 200: userAnswerResponse },
      errors: {
        400: ["INVALID_EMAIL_CHANGE_TOKEN"],
        409: ["EMAIL_TAKEN"],
        410: ["EMAIL_CHANGE_TOKEN_EXPIRED"],
        429: ["RATE_LIMITED"],
      },
      handler: ({ body, request, remoteAddress }) =>
        lifecycle.email.confirm(body, { request, remoteAddress }),
    }),
    authedRoute(deps, {
      method: "POST",
      path: "/account/delete",
      summary: "Delete the caller's account (with the password)",
      body: deleteAccountBody,
      responses: { 200: deleteAccountResponse },
      errors: {
        401: ["INVALID_CREDENTIALS"],
        409: ["SOLE_OWNER"],
        429: ["RATE_LIMITED"],
        503: ["SERVICE_BUSY"],
      },
      handler: async ({ auth, body, request, remoteAddress }) =>
        signedOutAnswer(
          deps,
          request,
          await lifecycle.deleteAccount(auth, body, { request, remoteAddress }),
        ),
    }),
  ];
}
