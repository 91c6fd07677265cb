/**
 * The account's operations: sign-up, and proving the address (verify, ask for a fresh mail,
 * follow the mailed link). Declarations only (see `http/operation.ts`): each names its route,
 * schemas, errors, guard and the service call, from which the route, `authModule.api`, the contract, the OpenAPI document
 * and the client are derived.
 *
 * @module
 */

import { z } from "zod";
import type { AuthApiClient } from "../api_inputs.ts";
import type { AuthActor } from "../actor.ts";
import { signUpBody, verifyEmailBody } from "./credential_inputs.ts";
import type { AuthCredentialsBody, AuthVerifyEmailBody } from "./credential_inputs.ts";
import type { AuthOperation } from "../http/operation.ts";
import { credentialResponse, verifyEmailResponse } from "./responses.ts";
import type { AuthCredentialResponse } from "./responses.ts";
import type { AuthUser } from "./user.ts";
import type { VerificationLinkOutcome } from "./verification_link.ts";

/** `POST /sign-up`: creates a user and their first credential, mails the verification token. */
export const signUp: AuthOperation<{
  method: "POST";
  path: "/sign-up";
  anonymous: true;
  body: AuthCredentialsBody;
  response: AuthCredentialResponse;
  errors: "EMAIL_TAKEN" | "RATE_LIMITED" | "SERVICE_BUSY";
  api: (input: AuthCredentialsBody, client?: AuthApiClient) => Promise<AuthCredentialResponse>;
}> = {
  method: "POST",
  path: "/sign-up",
  summary: "Create an account and sign in (sets the service_auth cookie)",
  guard: "anonymous",
  body: signUpBody,
  responses: { 200: credentialResponse },
  errors: { 409: ["EMAIL_TAKEN"], 429: ["RATE_LIMITED"], 503: ["SERVICE_BUSY"] },
  cookie: "issue",
  call: (services, input, _actor, client) => services.accounts.signUp(input, client),
};

/** `POST /verify-email`: consumes a mailed token (anonymous: the token is the proof). */
export const verifyEmail: AuthOperation<{
  method: "POST";
  path: "/verify-email";
  anonymous: true;
  body: AuthVerifyEmailBody;
  response: { user: AuthUser };
  errors: "INVALID_VERIFICATION_TOKEN" | "VERIFICATION_TOKEN_EXPIRED" | "RATE_LIMITED";
  api: (input: AuthVerifyEmailBody, client?: AuthApiClient) => Promise<{ user: AuthUser }>;
}> = {
  method: "POST",
  path: "/verify-email",
  summary: "Prove the address with the token the verification mail carried",
  guard: "anonymous",
  body: verifyEmailBody,
  responses: { 200: verifyEmailResponse },
  errors: {
    400: ["INVALID_VERIFICATION_TOKEN"],
    410: ["VERIFICATION_TOKEN_EXPIRED"],
    429: ["RATE_LIMITED"],
  },
  call: (services, input, _actor, client) => services.accounts.verifyEmail(input, client),
};

/** `POST /verify-email/resend`: mails a fresh token (409 `EMAIL_ALREADY_VERIFIED`). */
export const resendVerificationEmail: AuthOperation<{
  method: "POST";
  path: "/verify-email/resend";
  response: null;
  result: void;
  errors: "EMAIL_ALREADY_VERIFIED" | "RATE_LIMITED";
  api: (actor: AuthActor, client?: AuthApiClient) => Promise<void>;
}> = {
  method: "POST",
  path: "/verify-email/resend",
  summary: "Mail a fresh verification token to the signed-in user",
  guard: "signedIn",
  responses: { 204: null },
  errors: { 409: ["EMAIL_ALREADY_VERIFIED"], 429: ["RATE_LIMITED"] },
  call: (services, _input, actor, client) =>
    services.accounts.resendVerificationEmail(actor, client),
};

const verificationLinkQuery: z.ZodType<{ token?: string | undefined }> = z.object({
  token: z.string().max(512).optional(),
});

/**
 * `GET /verify-email`: the page a verification link opens. It verifies the address and
 * redirects (303) to the app with the outcome in the URL (`emailVerified=true`, or
 * `emailVerification=invalid|expired|rate-limited`); `auth.api` answers the outcome and the
 * location instead.
 */
export const followVerificationLink: AuthOperation<{
  method: "GET";
  path: "/verify-email";
  anonymous: true;
  query: { token?: string | undefined };
  response: null;
  result: VerificationLinkOutcome;
  api: (
    input: { token?: string | undefined },
    client?: AuthApiClient,
  ) => Promise<VerificationLinkOutcome>;
}> = {
  method: "GET",
  path: "/verify-email",
  summary: "The verification link: verify the address, then redirect (303) to the app",
  guard: "anonymous",
  query: verificationLinkQuery,
  responses: { 303: null },
  call: (services, input, _actor, client) => services.verificationLink(input, client),
  reply: ({ location }) =>
    new Response(null, {
      status: 303,
      headers: { location, "referrer-policy": "no-referrer" },
    }),
};
