/**
 * The webhook secret: what a valid one looks like, and its constant-time comparison.
 *
 * @module
 */

import { createHash, timingSafeEqual } from "node:crypto";

/**
 * The header carrying the secret on every webhook request (unless the `secretHeader` option
 * names another).
 *
 * @example Deliver an update as the messenger would
 * ```ts
 * import { MESSENGER_SECRET_HEADER } from "@app/fragment-cli";
 *
 * const request = new Request("http://localhost:8080/api/messenger/messenger/webhook", {
 *   method: "POST",
 *   headers: { [MESSENGER_SECRET_HEADER]: "s3cret", "content-type": "application/json" },
 *   body: JSON.stringify({ update_id: 1, message: { message_id: 1, text: "hi" } }),
 * });
 * ```
 */
export const MESSENGER_SECRET_HEADER = "X-Messenger-Bot-Api-Secret-Token";

/**
 * What a secret may contain: 1 to 256 of `A-Z a-z 0-9 _ -`, the rule of the messenger's
 * `setWebhook` `secret_token`, so any accepted secret can actually be registered.
 */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;

/**
 * Why a secret is unusable, or `null` when it is fine.
 *
 * @param secret The configured secret.
 * @returns A sentence naming the problem, or `null`.
 *
 * @example
 * ```ts
 * import { webhookSecretProblem } from "./webhook_secret.ts";
 *
 * webhookSecretProblem(""); // "must not be empty"
 * webhookSecretProblem("s3cr3t_token-1"); // null
 * ```
 */
export function webhookSecretProblem(secret: unknown): string | null {
  if (typeof secret !== "string") return "must be a string";
  if (secret.length === 0) return "must not be empty";
  if (!SECRET_PATTERN.test(secret)) {
    return "must be 1 to 256 characters of A-Z, a-z, 0-9, _ and - (the messenger's secret_token rule)";
  }
  return null;
}

/**
 * A constant-time check of presented secrets against the configured one: both are hashed first,
 * so neither the content nor the length of the secret leaks through timing. The configured
 * secret's digest is computed once, here, not per request.
 *
 * @param expected The configured secret.
 * @returns A function telling whether a header value (`null` when missing) is the secret.
 *
 * @example
 * ```ts
 * import { secretMatcher } from "./webhook_secret.ts";
 *
 * const matches = secretMatcher("abc");
 * matches("abc"); // true
 * matches(null); // false
 * ```
 */
export function secretMatcher(expected: string): (presented: string | null) => boolean {
  const digest = sha256(expected);
  return (presented) => presented !== null && timingSafeEqual(digest, sha256(presented));
}

function sha256(text: string): Uint8Array {
  return createHash("sha256").update(text).digest();
}
