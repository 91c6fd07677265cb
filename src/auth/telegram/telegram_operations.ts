/**
 * The Telegram operations: link the caller's account to a Telegram user (the bot confirms with
 * `/start <token>`), unlink it, and sign in with a Mini App's `initData` or the Login Widget.
 * Present only with `auth({ telegram })`. Declarations only (see `http/operation.ts`).
 *
 * @module
 */

import type { AuthApiClient } from "../api_inputs.ts";
import type { AuthActor } from "../actor.ts";
import type { AuthOperation } from "../http/operation.ts";
import { type AuthSignInResponse, signInResponse } from "../two_factor/two_factor_inputs.ts";
import {
  type AuthTelegramLink,
  type AuthTelegramSignInBody,
  telegramLinkResponse,
  telegramSignInBody,
} from "./telegram_inputs.ts";

/** `POST /telegram/link`: a single-use `https://t.me/<bot>?start=<token>` link (10 minutes). */
export const linkTelegram: AuthOperation<{
  method: "POST";
  path: "/telegram/link";
  response: AuthTelegramLink;
  api: (actor: AuthActor) => Promise<AuthTelegramLink>;
}> = {
  method: "POST",
  path: "/telegram/link",
  summary: "A single-use link that links the caller's account to the Telegram user who opens it",
  guard: "signedIn",
  feature: "telegram",
  responses: { 200: telegramLinkResponse },
  call: (services, _input, actor) => services.telegram.link(actor),
};

/**
 * `DELETE /telegram/link`: removes the caller's Telegram link (204 whether or not there was one;
 * 409 `LAST_SIGN_IN_METHOD` when it is the last way into an account without a password).
 */
export const unlinkTelegram: AuthOperation<{
  method: "DELETE";
  path: "/telegram/link";
  response: null;
  result: void;
  errors: "LAST_SIGN_IN_METHOD";
  api: (actor: AuthActor) => Promise<void>;
}> = {
  method: "DELETE",
  path: "/telegram/link",
  summary: "Unlink the caller's Telegram account",
  guard: "signedIn",
  feature: "telegram",
  responses: { 204: null },
  errors: { 409: ["LAST_SIGN_IN_METHOD"] },
  call: (services, _input, actor) => services.telegram.unlink(actor),
};

/**
 * `POST /telegram/sign-in` with `{ initData }` or `{ widget }`: the answer of `POST /sign-in` for
 * the linked account (401 `TELEGRAM_NOT_LINKED`, 401 `INVALID_TELEGRAM_DATA`).
 */
export const signInWithTelegram: AuthOperation<{
  method: "POST";
  path: "/telegram/sign-in";
  anonymous: true;
  body: AuthTelegramSignInBody;
  response: AuthSignInResponse;
  errors: "TELEGRAM_NOT_LINKED" | "INVALID_TELEGRAM_DATA" | "RATE_LIMITED";
  api: (input: AuthTelegramSignInBody, client?: AuthApiClient) => Promise<AuthSignInResponse>;
}> = {
  method: "POST",
  path: "/telegram/sign-in",
  summary: "Sign in with a Mini App's initData or the Login Widget (sets the service_auth cookie)",
  guard: "anonymous",
  feature: "telegram",
  body: telegramSignInBody,
  responses: { 200: signInResponse },
  errors: { 401: ["TELEGRAM_NOT_LINKED", "INVALID_TELEGRAM_DATA"], 429: ["RATE_LIMITED"] },
  cookie: "issue",
  call: (services, input, _actor, client) => services.telegram.signIn(input, client),
};
