/**
 * The credential's operations: sign in, sign out, read the session, list the caller's sessions
 * and revoke them. Declarations only (see
 * `http/operation.ts`).
 *
 * @module
 */

import type { AuthApiClient } from "../api_inputs.ts";
import type { AuthActor } from "../actor.ts";
import { signInBody } from "../account/credential_inputs.ts";
import type { AuthCredentialsBody } from "../account/credential_inputs.ts";
import type { AuthOperation } from "../http/operation.ts";
import {
  type ListedSession as AuthListedSession,
  listSessionsResponse,
  type RevokedSessions as AuthRevokedSessions,
  revokedSessionsResponse,
  sessionIdParams,
} from "../account/account_inputs.ts";
import { sessionResponse } from "../account/responses.ts";
import type { AuthSessionResponse } from "../account/responses.ts";
import { type AuthSignInResponse, signInResponse } from "../two_factor/two_factor_inputs.ts";

/**
 * `POST /sign-in`: issues a credential (401 `INVALID_CREDENTIALS`), or, for a user with a second
 * factor, the challenge of the second step (`twoFactorRequired: true`, no credential, no cookie).
 */
export const signIn: AuthOperation<{
  method: "POST";
  path: "/sign-in";
  anonymous: true;
  body: AuthCredentialsBody;
  response: AuthSignInResponse;
  errors: "INVALID_CREDENTIALS" | "RATE_LIMITED" | "SERVICE_BUSY";
  api: (input: AuthCredentialsBody, client?: AuthApiClient) => Promise<AuthSignInResponse>;
}> = {
  method: "POST",
  path: "/sign-in",
  summary: "Sign in with email and password (sets the service_auth cookie)",
  guard: "anonymous",
  body: signInBody,
  responses: { 200: signInResponse },
  errors: { 401: ["INVALID_CREDENTIALS"], 429: ["RATE_LIMITED"], 503: ["SERVICE_BUSY"] },
  cookie: "issue",
  call: (services, input, _actor, client) => services.accounts.signIn(input, client),
};

/** `POST /sign-out`: ends the actor's credential (needs `{ token }` or a request's context). */
export const signOut: AuthOperation<{
  method: "POST";
  path: "/sign-out";
  response: null;
  result: void;
  api: (actor: AuthActor) => Promise<void>;
}> = {
  method: "POST",
  path: "/sign-out",
  summary: "End the session of the credential (clears the cookie)",
  guard: "signedIn",
  responses: { 204: null },
  cookie: "clear",
  call: (services, _input, actor) => services.accounts.signOut(actor),
};

/** `GET /session`: the actor's user and credential expiry (needs a credential). */
export const getSession: AuthOperation<{
  method: "GET";
  path: "/session";
  response: AuthSessionResponse;
  api: (actor: AuthActor) => Promise<AuthSessionResponse>;
}> = {
  method: "GET",
  path: "/session",
  summary: "The current session's user and expiry",
  guard: "signedIn",
  responses: { 200: sessionResponse },
  call: (services, _input, actor) => services.accounts.session(actor),
};

/** `GET /sessions`: the caller's sessions (never their tokens), the most recently used first. */
export const listSessions: AuthOperation<{
  method: "GET";
  path: "/sessions";
  response: { sessions: AuthListedSession[] };
  api: (actor: AuthActor) => Promise<{ sessions: AuthListedSession[] }>;
}> = {
  method: "GET",
  path: "/sessions",
  summary: "The caller's sessions (never their tokens), the most recently used first",
  guard: "signedIn",
  responses: { 200: listSessionsResponse },
  call: (services, _input, actor) => services.lifecycle.sessions.list(actor),
};

/** `POST /sessions/revoke-others`: signs out every session of the caller but this one. */
export const revokeOtherSessions: AuthOperation<{
  method: "POST";
  path: "/sessions/revoke-others";
  response: AuthRevokedSessions;
  api: (actor: AuthActor) => Promise<AuthRevokedSessions>;
}> = {
  method: "POST",
  path: "/sessions/revoke-others",
  summary: "Sign out every session of the caller but this one",
  guard: "signedIn",
  responses: { 200: revokedSessionsResponse },
  call: (services, _input, actor) => services.lifecycle.sessions.revokeOthers(actor),
};

/** `DELETE /sessions/:sessionId`: signs out one session of the caller (another user's: 404). */
export const revokeSession: AuthOperation<{
  method: "DELETE";
  path: "/sessions/:sessionId";
  params: { sessionId: string };
  response: null;
  result: void;
  errors: "NOT_FOUND";
  api: (actor: AuthActor, input: { sessionId: string }) => Promise<void>;
}> = {
  method: "DELETE",
  path: "/sessions/:sessionId",
  summary: "Sign out one session of the caller (another user's id: 404)",
  guard: "signedIn",
  params: sessionIdParams,
  responses: { 204: null },
  errors: { 404: ["NOT_FOUND"] },
  call: (services, input, actor) => services.lifecycle.sessions.revoke(actor, input),
};
