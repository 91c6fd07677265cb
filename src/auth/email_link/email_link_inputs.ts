/**
 * The bodies and answers of the email link operations as zod schemas checked exactly against
 * their types: the routes parse and document them, `auth.api` parses its arguments with them, the
 * typed client takes its types from them.
 *
 * @module
 */

import { z } from "zod";
import { emailSchema } from "../account/email_address.ts";
import { userResponse } from "../account/responses.ts";
import type { AuthCredentialResponse } from "../account/responses.ts";
import { exactSchema } from "../http/exact_schema.ts";
import { MAX_REDIRECT_LENGTH } from "../http/redirect_target.ts";
import type { ResponseSchema } from "../http/responses.ts";
import {
  type AuthEmailLinkTwoFactorChallenge,
  emailLinkTwoFactorResponse,
} from "../two_factor/two_factor_inputs.ts";

/**
 * The body of `POST /sign-in/email-link`.
 *
 * @example Come back to the page the user was on
 * ```ts
 * import type { AuthSendEmailLinkBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthSendEmailLinkBody = { email: "ada@example.com", redirectTo: "/invoices" };
 * ```
 */
export interface AuthSendEmailLinkBody {
  /** The address to mail the link to (trimmed and lower-cased). */
  email: string;
  /**
   * Where the app goes once signed in: a path (`/invoices`) or a URL of `publicOrigin` or a
   * trusted origin; anything else is 400 `INVALID_REDIRECT`. Kept with the token and answered by
   * `POST /sign-in/email-link/verify`.
   */
  redirectTo?: string | undefined;
}

/** The body of `POST /sign-in/email-link`: a valid address, an optional `redirectTo`. */
export const sendEmailLinkBody: z.ZodType<AuthSendEmailLinkBody, AuthSendEmailLinkBody> =
  exactSchema<AuthSendEmailLinkBody>()(z.object({
    email: emailSchema,
    redirectTo: z.string().max(MAX_REDIRECT_LENGTH).optional(),
  }));

/**
 * The answer of `POST /sign-in/email-link` (202), the same whether or not the address has an
 * account.
 *
 * @example
 * ```ts
 * import type { AuthEmailLinkSent } from "@app/fragment-cli/auth";
 *
 * const sent: AuthEmailLinkSent = { message: "If this address can sign in, …" };
 * ```
 */
export interface AuthEmailLinkSent {
  /** One sentence for the user, the same for every address. */
  message: string;
}

/** The answer of `POST /sign-in/email-link`. */
export const emailLinkSentResponse: ResponseSchema<AuthEmailLinkSent> = exactSchema<
  AuthEmailLinkSent
>()(z.object({ message: z.string() }));

/**
 * The body of `POST /sign-in/email-link/verify`: the token of the link's fragment.
 *
 * @example On the page the link opens (`#sign-in-link?token=…`)
 * ```ts
 * import type { AuthVerifyEmailLinkBody } from "@app/fragment-cli/auth";
 *
 * const fragment = new URL("https://app.example.com/#sign-in-link?token=3q2-7wE").hash;
 * const body: AuthVerifyEmailLinkBody = {
 *   token: new URLSearchParams(fragment.split("?")[1] ?? "").get("token") ?? "",
 * };
 * ```
 */
export interface AuthVerifyEmailLinkBody {
  /** The mailed token. */
  token: string;
}

/** The body of `POST /sign-in/email-link/verify`. */
export const verifyEmailLinkBody: z.ZodType<AuthVerifyEmailLinkBody, AuthVerifyEmailLinkBody> =
  exactSchema<AuthVerifyEmailLinkBody>()(
    z.object({ token: z.string().max(512).describe("The token the mailed link carried") }),
  );

/**
 * The answer of `POST /sign-in/email-link/verify`: the credential of `POST /sign-in` (the same
 * `service_auth` cookie is set), and where the app goes next.
 *
 * @example
 * ```ts
 * import type { AuthEmailLinkCredential } from "@app/fragment-cli/auth";
 *
 * function next(answer: AuthEmailLinkCredential): string {
 *   return answer.redirectTo ?? "/";
 * }
 * ```
 */
export interface AuthEmailLinkCredential extends AuthCredentialResponse {
  /** The checked `redirectTo` of the request that mailed the link, or `null` without one. */
  redirectTo: string | null;
}

/** The answer of `POST /sign-in/email-link/verify`. */
export const emailLinkCredentialResponse: ResponseSchema<AuthEmailLinkCredential> = exactSchema<
  AuthEmailLinkCredential
>()(z.object({
  token: z.string().describe("Also set as the service_auth cookie; send as Authorization: Bearer"),
  user: userResponse,
  expiresAt: z.iso.datetime().describe("When the session expires (ISO 8601 UTC)"),
  redirectTo: z.string().nullable().describe("The checked redirectTo of the link's request"),
}));

/**
 * The answer of `POST /sign-in/email-link/verify`: the credential and `redirectTo`, or, for a user
 * with a second factor, the challenge of the second step with `redirectTo` (no cookie is set).
 *
 * @example
 * ```ts
 * import type { AuthEmailLinkAnswer } from "@app/fragment-cli/auth";
 *
 * function next(answer: AuthEmailLinkAnswer): string {
 *   return "twoFactorRequired" in answer ? "#verification-code" : answer.redirectTo ?? "/";
 * }
 * ```
 */
export type AuthEmailLinkAnswer = AuthEmailLinkCredential | AuthEmailLinkTwoFactorChallenge;

/** The answer of `POST /sign-in/email-link/verify`, either shape. */
export const emailLinkAnswerResponse: ResponseSchema<AuthEmailLinkAnswer> = exactSchema<
  AuthEmailLinkAnswer
>()(z.union([emailLinkCredentialResponse, emailLinkTwoFactorResponse]));
