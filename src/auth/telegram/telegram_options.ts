/**
 * The `telegram` option of `auth()`: the bot whose users may link their accounts and sign in.
 *
 * @module
 */

/**
 * Options of `auth({ telegram })`: Telegram accounts (`POST /telegram/link`,
 * `POST /telegram/sign-in`, `api.telegramAccount`). Without it those routes are absent.
 *
 * @example From the environment
 * ```ts
 * import { auth, pgliteAdapter } from "@app/fragment-cli";
 *
 * auth({
 *   database: pgliteAdapter(),
 *   telegram: {
 *     botToken: "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11", // TELEGRAM_BOT_TOKEN
 *     botUsername: "acme_bot", // TELEGRAM_BOT_USERNAME
 *   },
 * });
 * ```
 */
export interface AuthTelegramOptions {
  /**
   * The bot's token (from @BotFather): the key of the `initData` and Login Widget signatures.
   * Kept in memory only: never logged, answered or stored.
   */
  botToken: string;
  /** The bot's username without `@` (the link is `https://t.me/<botUsername>?start=…`). */
  botUsername: string;
  /**
   * The oldest `auth_date` accepted by `POST /telegram/sign-in`, in seconds.
   * @default 86400 (one day)
   */
  maxAgeSeconds?: number;
}

/** The options after defaults and checks. */
export interface ResolvedTelegramOptions {
  botToken: string;
  botUsername: string;
  maxAgeSeconds: number;
}

const BOT_TOKEN = /^[0-9]{1,20}:[A-Za-z0-9_-]{20,100}$/;
const BOT_USERNAME = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;

/**
 * Checks the `telegram` option; `fail` throws the module's configuration error. The messages
 * never quote the token.
 */
export function resolveTelegramOptions(
  options: AuthTelegramOptions | undefined,
  fail: (details: string) => never,
): ResolvedTelegramOptions | null {
  if (options === undefined) return null;
  if (typeof options !== "object" || options === null) fail("telegram: expected an object");
  if (typeof options.botToken !== "string" || !BOT_TOKEN.test(options.botToken)) {
    fail('telegram.botToken: expected a bot token like "123456:ABC-…" (from @BotFather)');
  }
  if (typeof options.botUsername !== "string" || !BOT_USERNAME.test(options.botUsername)) {
    fail("telegram.botUsername: expected the bot's username without @ (5–32 characters)");
  }
  const maxAgeSeconds = options.maxAgeSeconds ?? 86_400;
  if (!Number.isInteger(maxAgeSeconds) || maxAgeSeconds < 1 || maxAgeSeconds > 31_536_000) {
    fail("telegram.maxAgeSeconds: expected an integer of seconds from 1 to 31536000");
  }
  return { botToken: options.botToken, botUsername: options.botUsername, maxAgeSeconds };
}
