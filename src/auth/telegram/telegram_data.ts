/**
 * The signed data Telegram hands a web page: a Mini App's `initData` (the key is HMAC-SHA-256 of
 * the bot token under `"WebAppData"`) and the Login Widget's fields (the key is SHA-256 of the bot
 * token). Both sign the data-check string, every field but `hash` as `key=value` lines sorted by
 * key, with HMAC-SHA-256; the hex digest is compared in constant time, and `auth_date` must be at
 * most `maxAgeSeconds` old. See https://core.telegram.org/bots/webapps and
 * https://core.telegram.org/widgets/login.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { authError } from "../errors.ts";

/** The Telegram user a verified payload names. */
export interface TelegramIdentity {
  /** The Telegram user id, as its decimal digits. */
  id: string;
  /** The `@username`, without the `@`, or `null`. */
  username: string | null;
}

/** How old an `auth_date` may be, and the bot whose token signs the data. */
export interface TelegramDataCheck {
  botToken: string;
  maxAgeSeconds: number;
  /** The current time in seconds (tests move it). @default Date.now() / 1000 */
  nowSeconds?: number;
}

const HASH = /^[0-9a-f]{64}$/;
const USER_ID = /^[1-9][0-9]{0,18}$/;
const USERNAME = /^[A-Za-z0-9_]{1,64}$/;

function invalid(reason: string): never {
  throw authError("INVALID_TELEGRAM_DATA", `Invalid Telegram data: ${reason}`);
}

/** The data-check string: every field but `hash`, sorted by key, `key=value` joined by `\n`. */
export function dataCheckString(fields: ReadonlyMap<string, string>): string {
  return [...fields.entries()]
    .filter(([key]) => key !== "hash")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join("\n");
}

/** Checks `hash` (constant time) and `auth_date`; throws 401 `INVALID_TELEGRAM_DATA`. */
function checkSigned(
  fields: ReadonlyMap<string, string>,
  secretKey: Uint8Array,
  check: TelegramDataCheck,
): void {
  const hash = fields.get("hash");
  if (hash === undefined || !HASH.test(hash)) invalid("missing or malformed hash");
  const expected = createHmac("sha256", secretKey).update(dataCheckString(fields)).digest();
  if (!timingSafeEqual(expected, Buffer.from(hash, "hex"))) invalid("the hash does not match");
  const authDate = Number(fields.get("auth_date"));
  if (!Number.isSafeInteger(authDate) || authDate <= 0) invalid("missing auth_date");
  const now = check.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (now - authDate > check.maxAgeSeconds) invalid("auth_date is too old");
  if (authDate - now > 60) invalid("auth_date is in the future");
}

function identityOf(id: unknown, username: unknown): TelegramIdentity {
  const digits = typeof id === "number" && Number.isSafeInteger(id) ? String(id) : id;
  if (typeof digits !== "string" || !USER_ID.test(digits)) invalid("missing user id");
  return {
    id: digits,
    username: typeof username === "string" && USERNAME.test(username) ? username : null,
  };
}

/**
 * Verifies a Mini App's `Telegram.WebApp.initData` (a query string) for the bot; answers the user
 * it names.
 */
export function verifyInitData(initData: string, check: TelegramDataCheck): TelegramIdentity {
  const params = new URLSearchParams(initData);
  const fields = new Map<string, string>();
  for (const [key, value] of params) {
    if (fields.has(key)) invalid(`repeated field ${key}`);
    fields.set(key, value);
  }
  const secretKey = createHmac("sha256", "WebAppData").update(check.botToken).digest();
  checkSigned(fields, secretKey, check);
  let user: { id?: unknown; username?: unknown };
  try {
    user = JSON.parse(fields.get("user") ?? "null");
  } catch {
    invalid("user is not JSON");
  }
  if (user === null || typeof user !== "object") invalid("missing user");
  return identityOf(user.id, user.username);
}

/**
 * Verifies the Login Widget's fields (`id`, `first_name`, …, `auth_date`, `hash`) for the bot;
 * answers the user they name.
 */
export function verifyWidget(
  widget: Readonly<Record<string, string | number>>,
  check: TelegramDataCheck,
): TelegramIdentity {
  const fields = new Map<string, string>();
  for (const [key, value] of Object.entries(widget)) fields.set(key, String(value));
  const secretKey = createHash("sha256").update(check.botToken).digest();
  checkSigned(fields, secretKey, check);
  return identityOf(fields.get("id"), fields.get("username"));
}
