/**
 * Telegram's signatures as its documentation describes them, for tests: a Mini App's `initData`
 * (secret = HMAC-SHA-256 of the bot token under the key "WebAppData") and the Login Widget's
 * fields (secret = SHA-256 of the bot token); both sign the sorted `key=value` lines.
 *
 * @example
 * ```ts
 * import { signedInitData } from "./telegram_signing.ts";
 *
 * const initData = signedInitData("123:ABCDEFGHIJKLMNOPQRSTUVWXYZ", { id: 42, username: "ada" });
 * ```
 */
import { createHash, createHmac } from "node:crypto";

/** The hex HMAC of the data-check string of `fields` under `secret`. */
function sign(fields: Record<string, string>, secret: Uint8Array): string {
  const check = Object.keys(fields).sort().map((key) => `${key}=${fields[key]}`).join("\n");
  return createHmac("sha256", secret).update(check).digest("hex");
}

/** A Mini App `initData` query string for `user`, signed with `botToken`. */
export function signedInitData(
  botToken: string,
  user: { id: number; username?: string; first_name?: string },
  authDate: number = Math.floor(Date.now() / 1000),
  extra: Record<string, string> = { query_id: "AAHdF6IQAAAAAN0XohDhrOrc" },
): string {
  const fields: Record<string, string> = {
    ...extra,
    user: JSON.stringify({ first_name: "Ada", ...user }),
    auth_date: String(authDate),
  };
  const secret = createHmac("sha256", "WebAppData").update(botToken).digest();
  return new URLSearchParams({ ...fields, hash: sign(fields, secret) }).toString();
}

/** The Login Widget's fields for `user`, signed with `botToken`. */
export function signedWidget(
  botToken: string,
  user: { id: number; username?: string; first_name?: string },
  authDate: number = Math.floor(Date.now() / 1000),
): Record<string, string | number> {
  const fields: Record<string, string> = {
    id: String(user.id),
    first_name: user.first_name ?? "Ada",
    ...(user.username === undefined ? {} : { username: user.username }),
    auth_date: String(authDate),
  };
  const secret = createHash("sha256").update(botToken).digest();
  return { ...fields, id: user.id, hash: sign(fields, secret) };
}
