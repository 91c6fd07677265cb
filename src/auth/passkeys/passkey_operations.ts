/**
 * The passkey operations: registering a passkey for the signed-in user (options, then the
 * browser's response), listing, renaming and removing them, and the passwordless sign-in
 * (options, then the assertion). Declarations only (see `http/operation.ts`).
 *
 * @module
 */

import type { AuthCredentialResponse } from "../account/responses.ts";
import { credentialResponse } from "../account/responses.ts";
import type { AuthActor } from "../actor.ts";
import type { AuthApiClient } from "../api_inputs.ts";
import type { AuthOperation } from "../http/operation.ts";
import {
  addPasskeyBody,
  type AuthAddPasskeyBody,
  type AuthPasskey,
  type AuthPasskeyCreationOptions,
  type AuthPasskeyRequestOptions,
  type AuthPasskeySignInBody,
  type AuthRenamePasskeyBody,
  creationOptionsResponse,
  passkeyIdParams,
  passkeyResponse,
  passkeySignInBody,
  passkeysResponse,
  renamePasskeyBody,
  requestOptionsResponse,
} from "./passkey_inputs.ts";

/**
 * `POST /passkeys/registration-options`: WebAuthn creation options for a new passkey of the
 * caller (a challenge valid 5 minutes, the caller's passkeys excluded).
 */
export const passkeyRegistrationOptions: AuthOperation<{
  method: "POST";
  path: "/passkeys/registration-options";
  response: AuthPasskeyCreationOptions;
  errors: "RATE_LIMITED" | "PASSKEYS_UNAVAILABLE";
  api: (actor: AuthActor, client?: AuthApiClient) => Promise<AuthPasskeyCreationOptions>;
}> = {
  method: "POST",
  path: "/passkeys/registration-options",
  summary: "WebAuthn creation options for a new passkey of the caller",
  guard: "signedIn",
  responses: { 200: creationOptionsResponse },
  errors: { 429: ["RATE_LIMITED"], 503: ["PASSKEYS_UNAVAILABLE"] },
  call: (services, _input, actor, client) => services.passkeys.registrationOptions(actor, client),
};

/**
 * `POST /passkeys {response, name?}`: verifies the browser's registration response (to the
 * caller's latest registration challenge) and stores the passkey: 201 with it.
 */
export const addPasskey: AuthOperation<{
  method: "POST";
  path: "/passkeys";
  body: AuthAddPasskeyBody;
  response: AuthPasskey;
  errors:
    | "INVALID_PASSKEY_RESPONSE"
    | "INVALID_PASSKEY_CHALLENGE"
    | "PASSKEY_EXISTS"
    | "PASSKEY_CHALLENGE_EXPIRED"
    | "PASSKEYS_UNAVAILABLE";
  api: (
    actor: AuthActor,
    input: AuthAddPasskeyBody,
    client?: AuthApiClient,
  ) => Promise<AuthPasskey>;
}> = {
  method: "POST",
  path: "/passkeys",
  summary: "Add a passkey: the browser's registration response (201 the passkey)",
  guard: "signedIn",
  body: addPasskeyBody,
  responses: { 201: passkeyResponse },
  errors: {
    400: ["INVALID_PASSKEY_RESPONSE", "INVALID_PASSKEY_CHALLENGE"],
    409: ["PASSKEY_EXISTS"],
    410: ["PASSKEY_CHALLENGE_EXPIRED"],
    503: ["PASSKEYS_UNAVAILABLE"],
  },
  call: (services, input, actor, client) => services.passkeys.add(actor, input, client),
  reply: (passkey) => Response.json(passkey, { status: 201 }),
};

/** `GET /passkeys`: the caller's passkeys, oldest first. */
export const listPasskeys: AuthOperation<{
  method: "GET";
  path: "/passkeys";
  response: { passkeys: AuthPasskey[] };
  api: (actor: AuthActor) => Promise<{ passkeys: AuthPasskey[] }>;
}> = {
  method: "GET",
  path: "/passkeys",
  summary: "The caller's passkeys",
  guard: "signedIn",
  responses: { 200: passkeysResponse },
  call: (services, _input, actor) => services.passkeys.list(actor),
};

/** `PATCH /passkeys/:passkeyId {name}`: renames one of the caller's passkeys. */
export const renamePasskey: AuthOperation<{
  method: "PATCH";
  path: "/passkeys/:passkeyId";
  params: { passkeyId: string };
  body: AuthRenamePasskeyBody;
  response: AuthPasskey;
  errors: "NOT_FOUND";
  api: (
    actor: AuthActor,
    input: { passkeyId: string } & AuthRenamePasskeyBody,
  ) => Promise<AuthPasskey>;
}> = {
  method: "PATCH",
  path: "/passkeys/:passkeyId",
  summary: "Rename one of the caller's passkeys",
  guard: "signedIn",
  params: passkeyIdParams,
  body: renamePasskeyBody,
  responses: { 200: passkeyResponse },
  errors: { 404: ["NOT_FOUND"] },
  call: (services, input, actor) => services.passkeys.rename(actor, input),
};

/**
 * `DELETE /passkeys/:passkeyId`: removes one of the caller's passkeys (409
 * `LAST_SIGN_IN_METHOD` when no other way in would remain).
 */
export const removePasskey: AuthOperation<{
  method: "DELETE";
  path: "/passkeys/:passkeyId";
  params: { passkeyId: string };
  response: null;
  result: void;
  errors: "NOT_FOUND" | "LAST_SIGN_IN_METHOD";
  api: (actor: AuthActor, input: { passkeyId: string }) => Promise<void>;
}> = {
  method: "DELETE",
  path: "/passkeys/:passkeyId",
  summary: "Remove one of the caller's passkeys (never the account's last way in)",
  guard: "signedIn",
  params: passkeyIdParams,
  responses: { 204: null },
  errors: { 404: ["NOT_FOUND"], 409: ["LAST_SIGN_IN_METHOD"] },
  call: (services, input, actor) => services.passkeys.remove(actor, input),
};

/**
 * `POST /sign-in/passkey/options`: WebAuthn request options for a passwordless sign-in (a
 * challenge valid 5 minutes; any passkey of the site may answer, so no address is asked).
 */
export const passkeySignInOptions: AuthOperation<{
  method: "POST";
  path: "/sign-in/passkey/options";
  anonymous: true;
  response: AuthPasskeyRequestOptions;
  errors: "RATE_LIMITED" | "PASSKEYS_UNAVAILABLE";
  api: (client?: AuthApiClient) => Promise<AuthPasskeyRequestOptions>;
}> = {
  method: "POST",
  path: "/sign-in/passkey/options",
  summary: "WebAuthn request options for signing in with a passkey",
  guard: "anonymous",
  responses: { 200: requestOptionsResponse },
  errors: { 429: ["RATE_LIMITED"], 503: ["PASSKEYS_UNAVAILABLE"] },
  call: (services, _input, _actor, client) => services.passkeys.signInOptions(client),
};

/**
 * `POST /sign-in/passkey {response}`: signs in with the browser's assertion: the credential of
 * `POST /sign-in` (and its cookie). A passkey verifies its user, so no second step is asked.
 */
export const signInWithPasskey: AuthOperation<{
  method: "POST";
  path: "/sign-in/passkey";
  anonymous: true;
  body: AuthPasskeySignInBody;
  response: AuthCredentialResponse;
  errors:
    | "INVALID_PASSKEY_RESPONSE"
    | "INVALID_PASSKEY_CHALLENGE"
    | "INVALID_PASSKEY"
    | "PASSKEY_CLONED"
    | "PASSKEY_CHALLENGE_EXPIRED"
    | "RATE_LIMITED"
    | "PASSKEYS_UNAVAILABLE";
  api: (input: AuthPasskeySignInBody, client?: AuthApiClient) => Promise<AuthCredentialResponse>;
}> = {
  method: "POST",
  path: "/sign-in/passkey",
  summary: "Sign in with a passkey's assertion (sets the service_auth cookie)",
  guard: "anonymous",
  body: passkeySignInBody,
  responses: { 200: credentialResponse },
  errors: {
    400: ["INVALID_PASSKEY_RESPONSE", "INVALID_PASSKEY_CHALLENGE"],
    401: ["INVALID_PASSKEY", "PASSKEY_CLONED"],
    410: ["PASSKEY_CHALLENGE_EXPIRED"],
    429: ["RATE_LIMITED"],
    503: ["PASSKEYS_UNAVAILABLE"],
  },
  cookie: "issue",
  call: (services, input, _actor, client) => services.passkeys.signIn(input, client),
};
