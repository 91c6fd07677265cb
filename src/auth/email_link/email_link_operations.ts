/**
 * The email link operations: mail a sign-in link, and sign in with its token. Declarations only
 * (see `http/operation.ts`).
 *
 * @module
 */

import type { AuthApiClient } from "../api_inputs.ts";
import type { AuthOperation } from "../http/operation.ts";
import {
  type AuthEmailLinkAnswer,
  type AuthEmailLinkSent,
  type AuthSendEmailLinkBody,
  type AuthVerifyEmailLinkBody,
  emailLinkAnswerResponse,
  emailLinkSentResponse,
  sendEmailLinkBody,
  verifyEmailLinkBody,
} from "./email_link_inputs.ts";

/**
 * `POST /sign-in/email-link`: mails a sign-in link (15 minutes, single use); the same 202, after
 * the same work, whether or not the address has an account.
 */
export const sendEmailLink: AuthOperation<{
  method: "POST";
  path: "/sign-in/email-link";
  anonymous: true;
  body: AuthSendEmailLinkBody;
  response: AuthEmailLinkSent;
  errors: "INVALID_REDIRECT" | "RATE_LIMITED";
  api: (input: AuthSendEmailLinkBody, client?: AuthApiClient) => Promise<AuthEmailLinkSent>;
}> = {
  method: "POST",
  path: "/sign-in/email-link",
  summary: "Mail a sign-in link (the same 202 whether or not the account exists)",
  guard: "anonymous",
  body: sendEmailLinkBody,
  responses: { 202: emailLinkSentResponse },
  errors: { 400: ["INVALID_REDIRECT"], 429: ["RATE_LIMITED"] },
  call: (services, input, _actor, client) => services.emailLink.send(input, client),
  reply: (answer) => Response.json(answer, { status: 202 }),
};

/**
 * `POST /sign-in/email-link/verify` with the link's token: the credential of `POST /sign-in` (and
 * its cookie), plus the link's `redirectTo`; for a user with a second factor, the challenge of the
 * second step (`twoFactorRequired: true`, no cookie) with `redirectTo`.
 */
export const signInWithEmailLink: AuthOperation<{
  method: "POST";
  path: "/sign-in/email-link/verify";
  anonymous: true;
  body: AuthVerifyEmailLinkBody;
  response: AuthEmailLinkAnswer;
  errors: "INVALID_SIGN_IN_LINK" | "SIGN_IN_LINK_EXPIRED" | "RATE_LIMITED";
  api: (
    input: AuthVerifyEmailLinkBody,
    client?: AuthApiClient,
  ) => Promise<AuthEmailLinkAnswer>;
}> = {
  method: "POST",
  path: "/sign-in/email-link/verify",
  summary: "Sign in with the token of a mailed sign-in link (sets the service_auth cookie)",
  guard: "anonymous",
  body: verifyEmailLinkBody,
  responses: { 200: emailLinkAnswerResponse },
  errors: {
    400: ["INVALID_SIGN_IN_LINK"],
    410: ["SIGN_IN_LINK_EXPIRED"],
    429: ["RATE_LIMITED"],
  },
  cookie: "issue",
  call: (services, input, _actor, client) => services.emailLink.signIn(input, client),
};
