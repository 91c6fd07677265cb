/**
 * The webhook secret: what a valid one looks like, and its constant-time comparison.
 *
 * @module
 */

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

/** The longest secret {@link SECRET_PATTERN} allows. */
const MAX_SECRET_LENGTH = 256;

/**
 * A constant-time check of presented secrets against the configured one: every check walks the
 * same {@link MAX_SECRET_LENGTH} characters, whatever the presented value and the secret are, and
 * gathers their differences without branching on them, so neither the content nor the length of
 * the secret leaks through timing. (A digest of both sides did the same at about 5 µs a request
 * on Deno, through three `node:crypto` calls; this loop takes a fraction of a microsecond.)
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
  // The secret's characters, padded with zeros (the lengths are compared too: the secret followed
  // by NULs does not match it).
  const codes = new Uint16Array(MAX_SECRET_LENGTH);
  for (let i = 0; i < expected.length && i < MAX_SECRET_LENGTH; i++) {
    codes[i] = expected.charCodeAt(i);
  }
  const length = expected.length;
  return (presented) => {
    // Longer than any valid secret: refused on its own length, which says nothing of the secret.
    if (presented === null || presented.length > MAX_SECRET_LENGTH) return false;
    let difference = presented.length ^ length;
    for (let i = 0; i < MAX_SECRET_LENGTH; i++) {
      // `charCodeAt` past the end is NaN, which `|` and `^` read as 0.
      difference |= presented.charCodeAt(i) ^ codes[i];
    }
    return difference === 0;
  };
}
