/**
 * The email verification routes: `POST /verify-email` (anonymous: the token is the proof) and
 * `POST /verify-email/resend` (the signed-in user asks for a fresh mail). Each parses its input
 * and calls the account service.
 *
 * @module
 */

import type { Route } from "../core/mod.ts";
import type { AccountService } from "./account_service.ts";
import { verifyEmailBody } from "./credential_inputs.ts";
import { verifyEmailResponse } from "./responses.ts";
import { authedRoute, type AuthRouteDeps, publicRoute } from "./route_guards.ts";

/** The verification routes of one module instance. */
export function verificationRoutes(
  deps: AuthRouteDeps & { accounts: AccountService },
): Route[] {
  const { accounts } = deps;
  return [
    publicRoute(deps, {
      method: "POST",
      path: "/verify-email",
      summary: "Prove the address with the token the verification mail carried",
      body: verifyEmailBody,
      responses: { 200: verifyEmailResponse },
      errors: {
        400: ["INVALID_VERIFICATION_TOKEN"],
        410: ["VERIFICATION_TOKEN_EXPIRED"],
        429: ["RATE_LIMITED"],
      },
      handler: ({ body, request, remoteAddress }) =>
        accounts.verifyEmail(body, { request, remoteAddress }),
    }),
    authedRoute(deps, {
      method: "POST",
      path: "/verify-email/resend",
      summary: "Mail a fresh verification token to the signed-in user",
      responses: { 204: null },
      errors: { 409: ["EMAIL_ALREADY_VERIFIED"], 429: ["RATE_LIMITED"] },
      handler: ({ auth, request, remoteAddress }) =>
        accounts.resendVerificationEmail(auth, { request, remoteAddress }),
    }),
  ];
}
