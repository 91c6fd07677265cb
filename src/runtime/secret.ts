/**
 * The deployment secret: the key of every value a module signs (list cursors, …). It comes from a
 * module's `secret` option or the `FRAGMENT_SECRET` environment variable; without either, a
 * module signs with a random key of its process, so its signed values die with the process.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import process from "node:process";

/** The environment variable a module's `secret` option falls back to. */
export const FRAGMENT_SECRET_ENV = "FRAGMENT_SECRET";

/** The shortest accepted secret (32 characters: 192 bits of base64, 128 of hex). */
export const MIN_SECRET_LENGTH = 32;

/**
 * The secret a module is configured with: its `secret` option, else `FRAGMENT_SECRET`, else
 * `null`; a value that is not a string of {@link MIN_SECRET_LENGTH} characters at least throws a
 * `TypeError` whose message the module's configuration error repeats.
 *
 * @param option The module's `secret` option.
 * @returns The secret, or `null` when none is configured.
 *
 * @example
 * ```ts
 * import { configuredSecret } from "./secret.ts";
 *
 * configuredSecret("a".repeat(32)).length; // => 32
 * ```
 */
export function configuredSecret(option: unknown): string | null {
  const secret = option ?? (process.env[FRAGMENT_SECRET_ENV] || null);
  if (secret !== null && (typeof secret !== "string" || secret.length < MIN_SECRET_LENGTH)) {
    throw new TypeError(
      `expected at least ${MIN_SECRET_LENGTH} characters (from the option or ${FRAGMENT_SECRET_ENV})`,
    );
  }
  return secret;
}

let processKey: string | undefined;

/**
 * A new random secret: 32 random bytes in base64url (43 characters).
 *
 * @returns The secret.
 *
 * @example
 * ```ts
 * import { generateSecret } from "./secret.ts";
 *
 * generateSecret().length; // => 43
 * ```
 */
export function generateSecret(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * This process's random signing key, the same for every module of the process: what modules sign
 * with when no secret is configured. Values signed with it are refused by any other process and
 * after a restart.
 *
 * @returns The key, generated on first use.
 *
 * @example
 * ```ts
 * import { processSecret } from "./secret.ts";
 *
 * processSecret() === processSecret(); // => true
 * ```
 */
export function processSecret(): string {
  return processKey ??= generateSecret();
}

/**
 * The one-paragraph warning a module prints when it falls back to {@link processSecret}.
 *
 * @param moduleName The module's name, e.g. `"auth"`.
 * @returns The text (no trailing newline).
 *
 * @example
 * ```ts
 * import { missingSecretWarning } from "./secret.ts";
 *
 * missingSecretWarning("auth").startsWith("[auth] warning:"); // => true
 * ```
 */
export function missingSecretWarning(moduleName: string): string {
  return `[${moduleName}] warning: no secret configured (option \`secret\` or ${FRAGMENT_SECRET_ENV}); ` +
    "signing list cursors with a random key of this process, so cursors stop working after a " +
    "restart and across processes. Set FRAGMENT_SECRET to the same random value (at least 32 " +
    "characters) in every process of the deployment, e.g. the output of " +
    "`openssl rand -base64 32`.";
}
