/**
 * The email verification routes: `POST /verify-email` (anonymous: the token is the proof) and
 * `POST /verify-email/resend` (the signed-in user asks for a fresh mail).
 *
 * @module
 */

import { z } from "zod";
import type { Route } from "../core/mod.ts";
import { authedRoute, type AuthRouteDeps, publicRoute } from "./auth_route.ts";
import type { EmailVerification } from "./email_verification.ts";
import { authError } from "./errors.ts";

const verifyBody = z.object({ token: z.string().max(512) });

/** The verification routes of one module instance. */
export function verificationRoutes(
  deps: AuthRouteDeps & { verification: EmailVerification },
): Route[] {
  return [
    publicRoute(deps, {
      method: "POST",
      path: "/verify-email",
      body: verifyBody,
      handler: async ({ body }) => ({ user: await deps.verification.verify(body.token) }),
    }),
    authedRoute(deps, {
      method: "POST",
      path: "/verify-email/resend",
      handler: async ({ auth }) => {
        if (auth.user.emailVerified) {
          throw authError("EMAIL_ALREADY_VERIFIED", "The email address is already verified");
        }
        await deps.verification.send(auth.user);
        return undefined;
      },
    }),
  ];
}
