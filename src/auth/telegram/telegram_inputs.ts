/**
 * The bodies and answers of the Telegram operations as zod schemas: the routes parse with them,
 * `authModule.api` its arguments, the client and the OpenAPI document read their types.
 *
 * @module
 */

import { z } from "zod";
import { exactSchema } from "../http/exact_schema.ts";
import type { ResponseSchema } from "../http/responses.ts";

/**
 * The body of `POST /telegram/sign-in`: a Mini App's `Telegram.WebApp.initData` as it is, or the
 * Login Widget's fields (`id`, `first_name`, `username`, `photo_url`, `auth_date`, `hash`, …).
 *
 * @example From a Mini App
 * ```ts
 * import type { AuthTelegramSignInBody } from "@app/fragment-cli/auth";
 *
 * const body: AuthTelegramSignInBody = {
 *   initData: "query_id=AAH…&user=%7B%22id%22%3A42%7D&auth_date=1767225600&hash=5c1f…",
 * };
 * ```
 */
export type AuthTelegramSignInBody =
  | { initData: string }
  | { widget: { [field: string]: string | number } };

/** At most 4 KiB of `initData`; at most 16 widget fields of at most 1 KiB each. */
export const telegramSignInBody: z.ZodType<AuthTelegramSignInBody, AuthTelegramSignInBody> =
  exactSchema<
    AuthTelegramSignInBody
  >()(
    z.union([
      z.strictObject({ initData: z.string().min(1).max(4096) }),
      z.strictObject({
        widget: z.record(
          z.string().regex(/^[a-z_]{1,32}$/),
          z.union([z.string().max(1024), z.number()]),
        ).refine((fields) => Object.keys(fields).length <= 16, "At most 16 fields"),
      }),
    ]),
  );

/**
 * The answer of `POST /telegram/link`: the link to open in Telegram, and when it stops working.
 *
 * @example Show it as a link or a QR code
 * ```ts
 * import type { AuthTelegramLink } from "@app/fragment-cli/auth";
 *
 * const link: AuthTelegramLink = {
 *   url: "https://t.me/acme_bot?start=q8Jx…",
 *   expiresAt: "2026-01-01T12:10:00.000Z",
 * };
 * console.log(`Open ${link.url} before ${link.expiresAt}`);
 * ```
 */
export interface AuthTelegramLink {
  /** `https://t.me/<bot username>?start=<single-use token>`. */
  url: string;
  /** When the token expires (ISO 8601, 10 minutes after it was issued). */
  expiresAt: string;
}

/** The answer of `POST /telegram/link`. */
export const telegramLinkResponse: ResponseSchema<AuthTelegramLink> = exactSchema<
  AuthTelegramLink
>()(z.object({
  url: z.string().describe("https://t.me/<bot username>?start=<token>"),
  expiresAt: z.iso.datetime(),
}));

/**
 * The Telegram account linked to a user, as `GET /me`'s `user.telegram` shows it.
 *
 * @example
 * ```ts
 * import type { AuthTelegramAccount } from "@app/fragment-cli/auth";
 *
 * const linked: AuthTelegramAccount = { id: "123456789", username: "ada" };
 * ```
 */
export interface AuthTelegramAccount {
  /** The Telegram user id, as decimal digits (it may exceed 2^53 in the future). */
  id: string;
  /** The Telegram `@username` (without `@`) when the link was made, or `null`. */
  username: string | null;
}

/** `{ id, username }` of a linked Telegram account. */
export const telegramAccountResponse: ResponseSchema<AuthTelegramAccount> = exactSchema<
  AuthTelegramAccount
>()(z.object({ id: z.string(), username: z.string().nullable() }));
