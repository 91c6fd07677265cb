/**
 * The account lifecycle's operations: the password (forgot, reset, change), the address change
 * (request, confirm) and the account's deletion. Declarations only (see `http/operation.ts`):
 * each names its route, schemas, errors, guard and the service call, from which the route,
 * `authModule.api`, the contract, the OpenAPI document and the client are derived.
 *
 * @module
 */

import type { AuthApiClient } from "../api_inputs.ts";
import type { AuthActor } from "../actor.ts";
import type { AuthOperation } from "../http/operation.ts";
import {
  type ChangeEmailBody,
  changeEmailBody,
  changeEmailResponse,
  type ChangePasswordBody,
  changePasswordBody,
  changePasswordResponse,
  type ConfirmEmailChangeBody,
  confirmEmailChangeBody,
  type DeleteAccountBody,
  deleteAccountBody,
  deleteAccountResponse,
  type DeletedAccount,
  type ForgotPasswordBody,
  forgotPasswordBody,
  type ForgotPasswordResponse,
  forgotPasswordResponse,
  type ResetPasswordBody,
  resetPasswordBody,
  userAnswerResponse,
} from "./account_inputs.ts";
import type { AuthUser } from "./user.ts";

/** `value` as a 202 answer (accepted: the mail goes out after the answer). */
function accepted(value: unknown): Response {
  return Response.json(value, { status: 202 });
}

/** `POST /password/forgot`: mails a reset link; the same 202 whether or not the account exists. */
export const forgotPassword: AuthOperation<{
  method: "POST";
  path: "/password/forgot";
  anonymous: true;
  body: ForgotPasswordBody;
  response: ForgotPasswordResponse;
  errors: "RATE_LIMITED";
  api: (input: ForgotPasswordBody, client?: AuthApiClient) => Promise<ForgotPasswordResponse>;
}> = {
  method: "POST",
  path: "/password/forgot",
  summary: "Mail a password reset link (the same 202 whether or not the account exists)",
  guard: "anonymous",
  body: forgotPasswordBody,
  responses: { 202: forgotPasswordResponse },
  errors: { 429: ["RATE_LIMITED"] },
  call: (services, input, _actor, client) => services.lifecycle.password.forgot(input, client),
  reply: accepted,
};

/** `POST /password/reset`: sets a new password with the mailed token; every session ends. */
export const resetPassword: AuthOperation<{
  method: "POST";
  path: "/password/reset";
  anonymous: true;
  body: ResetPasswordBody;
  response: { user: AuthUser };
  errors: "INVALID_RESET_TOKEN" | "RESET_TOKEN_EXPIRED" | "RATE_LIMITED" | "SERVICE_BUSY";
  api: (input: ResetPasswordBody, client?: AuthApiClient) => Promise<{ user: AuthUser }>;
}> = {
  method: "POST",
  path: "/password/reset",
  summary: "Set a new password with the mailed token; every session of the user ends",
  guard: "anonymous",
  body: resetPasswordBody,
  responses: { 200: userAnswerResponse },
  errors: {
    400: ["INVALID_RESET_TOKEN"],
    410: ["RESET_TOKEN_EXPIRED"],
    429: ["RATE_LIMITED"],
    503: ["SERVICE_BUSY"],
  },
  cookie: "clear",
  call: (services, input, _actor, client) => services.lifecycle.password.reset(input, client),
};

/** `POST /password/change`: the current password is checked like a sign-in. */
export const changePassword: AuthOperation<{
  method: "POST";
  path: "/password/change";
  body: ChangePasswordBody;
  response: { user: AuthUser; revokedSessions: number };
  errors: "INVALID_CREDENTIALS" | "RATE_LIMITED" | "SERVICE_BUSY";
  api: (
    actor: AuthActor,
    input: ChangePasswordBody,
    client?: AuthApiClient,
  ) => Promise<{ user: AuthUser; revokedSessions: number }>;
}> = {
  method: "POST",
  path: "/password/change",
  summary: "Change the password (the current one is checked like a sign-in)",
  guard: "signedIn",
  body: changePasswordBody,
  responses: { 200: changePasswordResponse },
  errors: { 401: ["INVALID_CREDENTIALS"], 429: ["RATE_LIMITED"], 503: ["SERVICE_BUSY"] },
  call: (services, input, actor, client) =>
    services.lifecycle.password.change(actor, input, client),
};

/** `POST /email/change`: mails a confirmation link to the new address (202). */
export const changeEmail: AuthOperation<{
  method: "POST";
  path: "/email/change";
  body: ChangeEmailBody;
  response: ForgotPasswordResponse;
  errors: "INVALID_CREDENTIALS" | "EMAIL_TAKEN" | "RATE_LIMITED" | "SERVICE_BUSY";
  api: (
    actor: AuthActor,
    input: ChangeEmailBody,
    client?: AuthApiClient,
  ) => Promise<ForgotPasswordResponse>;
}> = {
  method: "POST",
  path: "/email/change",
  summary: "Mail a confirmation link to a new address (202)",
  guard: "signedIn",
  body: changeEmailBody,
  responses: { 202: changeEmailResponse },
  errors: {
    401: ["INVALID_CREDENTIALS"],
    409: ["EMAIL_TAKEN"],
    429: ["RATE_LIMITED"],
    503: ["SERVICE_BUSY"],
  },
  call: (services, input, actor, client) => services.lifecycle.email.request(actor, input, client),
  reply: accepted,
};

/** `POST /email/change/confirm`: switches to the new address with the token mailed to it. */
export const confirmEmailChange: AuthOperation<{
  method: "POST";
  path: "/email/change/confirm";
  anonymous: true;
  body: ConfirmEmailChangeBody;
  response: { user: AuthUser };
  errors:
    | "INVALID_EMAIL_CHANGE_TOKEN"
    | "EMAIL_TAKEN"
    | "EMAIL_CHANGE_TOKEN_EXPIRED"
    | "RATE_LIMITED";
  api: (input: ConfirmEmailChangeBody, client?: AuthApiClient) => Promise<{ user: AuthUser }>;
}> = {
  method: "POST",
  path: "/email/change/confirm",
  summary: "Switch to the new address with the token mailed to it",
  guard: "anonymous",
  body: confirmEmailChangeBody,
  responses: { 200: userAnswerResponse },
  errors: {
    400: ["INVALID_EMAIL_CHANGE_TOKEN"],
    409: ["EMAIL_TAKEN"],
    410: ["EMAIL_CHANGE_TOKEN_EXPIRED"],
    429: ["RATE_LIMITED"],
  },
  call: (services, input, _actor, client) => services.lifecycle.email.confirm(input, client),
};

/** `POST /account/delete`: deletes the caller's account (with the password; clears the cookie). */
export const deleteAccount: AuthOperation<{
  method: "POST";
  path: "/account/delete";
  body: DeleteAccountBody;
  response: DeletedAccount;
  errors: "INVALID_CREDENTIALS" | "SOLE_OWNER" | "RATE_LIMITED" | "SERVICE_BUSY";
  api: (
    actor: AuthActor,
    input: DeleteAccountBody,
    client?: AuthApiClient,
  ) => Promise<DeletedAccount>;
}> = {
  method: "POST",
  path: "/account/delete",
  summary: "Delete the caller's account (with the password)",
  guard: "signedIn",
  body: deleteAccountBody,
  responses: { 200: deleteAccountResponse },
  errors: {
    401: ["INVALID_CREDENTIALS"],
    409: ["SOLE_OWNER"],
    429: ["RATE_LIMITED"],
    503: ["SERVICE_BUSY"],
  },
  cookie: "clear",
  call: (services, input, actor, client) => services.lifecycle.deleteAccount(actor, input, client),
};
