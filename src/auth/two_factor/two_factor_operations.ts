/**
 * The second-factor operations: the caller's factors, TOTP with its recovery codes, and the second
 * step of a sign-in. Declarations only (see `http/operation.ts`).
 *
 * @module
 */

import type { AuthApiClient } from "../api_inputs.ts";
import type { AuthActor } from "../actor.ts";
import type { AuthOperation } from "../http/operation.ts";
import {
  type AuthEnableTotpBody,
  type AuthRecoveryCodes,
  type AuthSignInTwoFactorBody,
  type AuthTotpSetup,
  type AuthTwoFactorCredential,
  type AuthTwoFactorPasskeyOptionsBody,
  type AuthTwoFactorPasswordBody,
  type AuthTwoFactorStatus,
  enableTotpBody,
  recoveryCodesResponse,
  signInTwoFactorBody,
  totpSetupResponse,
  twoFactorCredentialResponse,
  twoFactorPasskeyOptionsBody,
  twoFactorPasswordBody,
  twoFactorStatusResponse,
} from "./two_factor_inputs.ts";
import {
  type AuthPasskeyRequestOptions,
  requestOptionsResponse,
} from "../passkeys/passkey_inputs.ts";

/** `GET /two-factor`: whether sign-ins ask for a second step, and the caller's factors. */
export const twoFactorStatus: AuthOperation<{
  method: "GET";
  path: "/two-factor";
  response: AuthTwoFactorStatus;
  api: (actor: AuthActor) => Promise<AuthTwoFactorStatus>;
}> = {
  method: "GET",
  path: "/two-factor",
  summary: "The caller's second factors: enabled, TOTP, recovery codes left, passkeys",
  guard: "signedIn",
  responses: { 200: twoFactorStatusResponse },
  call: (services, _input, actor) => services.twoFactor.status(actor),
};

/**
 * `POST /two-factor/totp/setup {password}`: a new TOTP secret and its `otpauth://` URL, not active
 * until `POST /two-factor/totp/enable` confirms a code (a repeated setup replaces it).
 */
export const setupTotp: AuthOperation<{
  method: "POST";
  path: "/two-factor/totp/setup";
  body: AuthTwoFactorPasswordBody;
  response: AuthTotpSetup;
  errors: "INVALID_CREDENTIALS" | "TOTP_ALREADY_ENABLED" | "RATE_LIMITED" | "SERVICE_BUSY";
  api: (
    actor: AuthActor,
    input: AuthTwoFactorPasswordBody,
    client?: AuthApiClient,
  ) => Promise<AuthTotpSetup>;
}> = {
  method: "POST",
  path: "/two-factor/totp/setup",
  summary: "Start a TOTP setup: a new secret for the authenticator app (needs the password)",
  guard: "signedIn",
  body: twoFactorPasswordBody,
  responses: { 200: totpSetupResponse },
  errors: {
    401: ["INVALID_CREDENTIALS"],
    409: ["TOTP_ALREADY_ENABLED"],
    429: ["RATE_LIMITED"],
    503: ["SERVICE_BUSY"],
  },
  call: (services, input, actor, client) => services.twoFactor.setupTotp(actor, input, client),
};

/**
 * `POST /two-factor/totp/enable {code}`: confirms the setup with a code of its secret; sign-ins
 * ask for a second step from now on. Answers 10 recovery codes, shown this once.
 */
export const enableTotp: AuthOperation<{
  method: "POST";
  path: "/two-factor/totp/enable";
  body: AuthEnableTotpBody;
  response: AuthRecoveryCodes;
  errors: "INVALID_TWO_FACTOR_CODE" | "TOTP_ALREADY_ENABLED" | "TOTP_NOT_SET_UP" | "RATE_LIMITED";
  api: (
    actor: AuthActor,
    input: AuthEnableTotpBody,
    client?: AuthApiClient,
  ) => Promise<AuthRecoveryCodes>;
}> = {
  method: "POST",
  path: "/two-factor/totp/enable",
  summary: "Confirm the TOTP setup with a code: the recovery codes, shown once",
  guard: "signedIn",
  body: enableTotpBody,
  responses: { 200: recoveryCodesResponse },
  errors: {
    401: ["INVALID_TWO_FACTOR_CODE"],
    409: ["TOTP_ALREADY_ENABLED", "TOTP_NOT_SET_UP"],
    429: ["RATE_LIMITED"],
  },
  call: (services, input, actor, client) => services.twoFactor.enableTotp(actor, input, client),
};

/** `POST /two-factor/recovery-codes {password}`: 10 new recovery codes; the older ones are void. */
export const regenerateRecoveryCodes: AuthOperation<{
  method: "POST";
  path: "/two-factor/recovery-codes";
  body: AuthTwoFactorPasswordBody;
  response: AuthRecoveryCodes;
  errors: "INVALID_CREDENTIALS" | "TWO_FACTOR_NOT_ENABLED" | "RATE_LIMITED" | "SERVICE_BUSY";
  api: (
    actor: AuthActor,
    input: AuthTwoFactorPasswordBody,
    client?: AuthApiClient,
  ) => Promise<AuthRecoveryCodes>;
}> = {
  method: "POST",
  path: "/two-factor/recovery-codes",
  summary: "New recovery codes, shown once; the older ones stop working (needs the password)",
  guard: "signedIn",
  body: twoFactorPasswordBody,
  responses: { 200: recoveryCodesResponse },
  errors: {
    401: ["INVALID_CREDENTIALS"],
    409: ["TWO_FACTOR_NOT_ENABLED"],
    429: ["RATE_LIMITED"],
    503: ["SERVICE_BUSY"],
  },
  call: (services, input, actor, client) =>
    services.twoFactor.regenerateRecoveryCodes(actor, input, client),
};

/**
 * `POST /two-factor/disable {password}`: removes TOTP and the recovery codes (passkeys stay);
 * answers the factors left.
 */
export const disableTwoFactor: AuthOperation<{
  method: "POST";
  path: "/two-factor/disable";
  body: AuthTwoFactorPasswordBody;
  response: AuthTwoFactorStatus;
  errors: "INVALID_CREDENTIALS" | "RATE_LIMITED" | "SERVICE_BUSY";
  api: (
    actor: AuthActor,
    input: AuthTwoFactorPasswordBody,
    client?: AuthApiClient,
  ) => Promise<AuthTwoFactorStatus>;
}> = {
  method: "POST",
  path: "/two-factor/disable",
  summary: "Remove TOTP and the recovery codes (needs the password); passkeys stay",
  guard: "signedIn",
  body: twoFactorPasswordBody,
  responses: { 200: twoFactorStatusResponse },
  errors: { 401: ["INVALID_CREDENTIALS"], 429: ["RATE_LIMITED"], 503: ["SERVICE_BUSY"] },
  call: (services, input, actor, client) => services.twoFactor.disable(actor, input, client),
};

/**
 * `POST /sign-in/two-factor/passkey-options {challenge}`: WebAuthn request options for answering a
 * sign-in's challenge with one of its user's passkeys (`allowCredentials` lists them; the WebAuthn
 * challenge is bound to this sign-in and user, single use, 5 minutes).
 */
export const twoFactorPasskeyOptions: AuthOperation<{
  method: "POST";
  path: "/sign-in/two-factor/passkey-options";
  anonymous: true;
  body: AuthTwoFactorPasskeyOptionsBody;
  response: AuthPasskeyRequestOptions;
  errors:
    | "INVALID_TWO_FACTOR_CHALLENGE"
    | "INVALID_PASSKEY"
    | "TWO_FACTOR_CHALLENGE_EXPIRED"
    | "RATE_LIMITED"
    | "PASSKEYS_UNAVAILABLE";
  api: (
    input: AuthTwoFactorPasskeyOptionsBody,
    client?: AuthApiClient,
  ) => Promise<AuthPasskeyRequestOptions>;
}> = {
  method: "POST",
  path: "/sign-in/two-factor/passkey-options",
  summary: "WebAuthn request options to answer a sign-in's challenge with a passkey",
  guard: "anonymous",
  body: twoFactorPasskeyOptionsBody,
  responses: { 200: requestOptionsResponse },
  errors: {
    400: ["INVALID_TWO_FACTOR_CHALLENGE"],
    401: ["INVALID_PASSKEY"],
    410: ["TWO_FACTOR_CHALLENGE_EXPIRED"],
    429: ["RATE_LIMITED"],
    503: ["PASSKEYS_UNAVAILABLE"],
  },
  call: (services, input, _actor, client) => services.twoFactor.passkeyOptions(input, client),
};

/**
 * `POST /sign-in/two-factor {challenge, code | recoveryCode | passkey}`: the second step of a
 * sign-in whose answer was `twoFactorRequired`; the credential (and its cookie), with the first
 * step's `redirectTo`.
 */
export const signInWithSecondFactor: AuthOperation<{
  method: "POST";
  path: "/sign-in/two-factor";
  anonymous: true;
  body: AuthSignInTwoFactorBody;
  response: AuthTwoFactorCredential;
  errors:
    | "INVALID_TWO_FACTOR_CHALLENGE"
    | "INVALID_PASSKEY_RESPONSE"
    | "INVALID_PASSKEY_CHALLENGE"
    | "INVALID_TWO_FACTOR_CODE"
    | "INVALID_PASSKEY"
    | "PASSKEY_CLONED"
    | "TWO_FACTOR_CHALLENGE_EXPIRED"
    | "PASSKEY_CHALLENGE_EXPIRED"
    | "RATE_LIMITED"
    | "PASSKEYS_UNAVAILABLE";
  api: (
    input: AuthSignInTwoFactorBody,
    client?: AuthApiClient,
  ) => Promise<AuthTwoFactorCredential>;
}> = {
  method: "POST",
  path: "/sign-in/two-factor",
  summary: "Answer a sign-in's challenge with a TOTP code, a recovery code or a passkey " +
    "(sets the cookie)",
  guard: "anonymous",
  body: signInTwoFactorBody,
  responses: { 200: twoFactorCredentialResponse },
  errors: {
    400: [
      "INVALID_TWO_FACTOR_CHALLENGE",
      "INVALID_PASSKEY_RESPONSE",
      "INVALID_PASSKEY_CHALLENGE",
    ],
    401: ["INVALID_TWO_FACTOR_CODE", "INVALID_PASSKEY", "PASSKEY_CLONED"],
    410: ["TWO_FACTOR_CHALLENGE_EXPIRED", "PASSKEY_CHALLENGE_EXPIRED"],
    429: ["RATE_LIMITED"],
    503: ["PASSKEYS_UNAVAILABLE"],
  },
  cookie: "issue",
  call: (services, input, _actor, client) => services.twoFactor.signIn(input, client),
};
