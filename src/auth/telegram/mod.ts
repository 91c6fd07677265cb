/**
 * Telegram accounts: link an account to a Telegram user, sign in with Telegram, and the bot's
 * read of an account.
 *
 * @module
 */

export {
  type AuthTelegramAccountContext,
  type AuthTelegramLinkResult,
  type AuthTelegramUser,
  LINK_TOKEN_TTL_SECONDS,
  type TelegramService,
  telegramService,
} from "./telegram_service.ts";
export {
  type AuthTelegramOptions,
  type ResolvedTelegramOptions,
  resolveTelegramOptions,
} from "./telegram_options.ts";
export type {
  AuthTelegramAccount,
  AuthTelegramLink,
  AuthTelegramSignInBody,
} from "./telegram_inputs.ts";
