/**
 * The answers of the account and session operations: the user, a credential, a session.
 *
 * @module
 */

import { z } from "zod";
import { exactSchema } from "../http/exact_schema.ts";
import type { ResponseSchema } from "../http/responses.ts";
import type { AuthUser } from "./user.ts";

/** A user: `{ id, email, role, emailVerified }`. */
export const userResponse: ResponseSchema<AuthUser> = exactSchema<AuthUser>()(z.object({
  id: z.string(),
  email: z.string(),
  role: z.string(),
  emailVerified: z.boolean(),
}));

const sessionExpiry = z.iso.datetime().describe("When the session expires (ISO 8601 UTC)");

/**
 * The answer of `POST /sign-up` and `POST /sign-in`: the new credential and its user.
 *
 * @example Keep the token on a server-side client
 * ```ts
 * import type { AuthCredentialResponse } from "@app/fragment-cli/auth";
 *
 * const response = await fetch("https://app.example.com/api/auth/sign-in", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ email: "ada@example.com", password: "correct horse" }),
 * });
 * const { token, user, expiresAt }: AuthCredentialResponse = await response.json();
 * console.log(user.email, expiresAt, token.length);
 * ```
 */
export interface AuthCredentialResponse {
  /** The credential, for `Authorization: Bearer` (the same one is set as the cookie). */
  token: string;
  /** The signed-in user. */
  user: AuthUser;
  /** When the credential expires (ISO 8601). */
  expiresAt: string;
}

/** The answer of `POST /sign-up` and `POST /sign-in`. */
export const credentialResponse: ResponseSchema<AuthCredentialResponse> = exactSchema<
  AuthCredentialResponse
>()(z.object({
  token: z.string().describe("Also set as the service_auth cookie; send as Authorization: Bearer"),
  user: userResponse,
  expiresAt: sessionExpiry,
}));

/**
 * The answer of `GET /session`: the credential's user and when the credential expires.
 *
 * @example
 * ```ts
 * import type { AuthSessionResponse } from "@app/fragment-cli/auth";
 *
 * const session: AuthSessionResponse = await (await fetch("/api/auth/session")).json();
 * const minutesLeft = (Date.parse(session.expiresAt) - Date.now()) / 60_000;
 * ```
 */
export interface AuthSessionResponse {
  /** The signed-in user. */
  user: AuthUser;
  /** When the credential expires (ISO 8601). */
  expiresAt: string;
}

/** The answer of `GET /session`. */
export const sessionResponse: ResponseSchema<AuthSessionResponse> = exactSchema<
  AuthSessionResponse
>()(
  z.object({ user: userResponse, expiresAt: sessionExpiry }),
);

/** The answer of `POST /verify-email`. */
export const verifyEmailResponse: ResponseSchema<{ user: AuthUser }> = exactSchema<
  { user: AuthUser }
>()(z.object({ user: userResponse }));
