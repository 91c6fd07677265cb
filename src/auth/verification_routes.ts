/**
 * The email verification routes: `POST /verify-email` (anonymous: the token is the proof) and
 * `POST /verify-email/resend` (the signed-in user asks for a fresh mail).
 *
 * @module
 */

import { z } from "zod";
import type { Route } from "../core/mod.ts";
import { authedRoute, type AuthRouteDeps, publicRoute } from "./auth_route.ts";
import type { CredentialLimits } from "./credential_limits.ts";
import type { EmailVerification } from "./email_verification.ts";
import { authError } from "./errors.ts";
import { exactSchema } from "./exact_schema.ts";
import { verifyEmailResponse } from "./responses.ts";

/** The body of `POST /verify-email`. */
export interface VerifyEmailBody {
  token: string;
}

/** The body of `POST /verify-email`: the mailed token. */
export const verifyEmailBody: z.ZodType<VerifyEmailBody, VerifyEmailBody> = exactSchema<
  VerifyEmailBody
>()(z.object({ token: z.string().max(512) }));

/** The verification routes of one module instance. */
export function verificationRoutes(
  deps: AuthRouteDeps & { verification: EmailVerification; limits: CredentialLimits },
): Route[] {
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
      // Anonymous: limited per client address (a token is 256 bits, but each guess costs a query).
      handler: async ({ body, request, remoteAddress }) => ({
        user: await deps.limits.attempt({
          action: "verify-email",
          request,
          remoteAddress,
          email: null,
          countOnlyFailures: false,
          run: () => deps.verification.verify(body.token),
        }),
      }),
    }),
    authedRoute(deps, {
      method: "POST",
      path: "/verify-email/resend",
      summary: "Mail a fresh verification token to the signed-in user",
      responses: { 204: null },
      errors: { 409: ["EMAIL_ALREADY_VERIFIED"], 429: ["RATE_LIMITED"] },
      // Each call sends a mail: limited per address and per account, so nobody mail-bombs an inbox.
      handler: async ({ auth, request, remoteAddress }) => {
        if (auth.user.emailVerified) {
          throw authError("EMAIL_ALREADY_VERIFIED", "The email address is already verified");
        }
        await deps.limits.attempt({
          action: "verify-email-resend",
          request,
          remoteAddress,
          email: auth.user.email,
          countOnlyFailures: false,
          run: () => deps.verification.send(auth.user),
        });
        return undefined;
      },
    }),
  ];
}
