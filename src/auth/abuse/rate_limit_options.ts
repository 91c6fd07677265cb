/**
 * The `rateLimit` and `trustProxy` options of `auth()`: their shape, defaults and validation.
 *
 * @module
 */

import { ModuleConfigError, type TrustProxy } from "../../core/mod.ts";
import type { RateLimitRule } from "./rate_limiter.ts";

/**
 * Rate limits of the anonymous routes that hash a password (`POST /sign-in`, `POST /sign-up`).
 * Counters live in the database (shared by every process), in fixed windows.
 *
 * @example
 * ```ts
 * import type { RateLimitOptions } from "@app/fragment-cli/auth";
 *
 * const stricter: RateLimitOptions = { window: 600, max: 30, perAccount: { window: 3600, max: 5 } };
 * ```
 */
export interface RateLimitOptions {
  /** Window of the per-address limit, in seconds. @default 900 */
  window?: number;
  /**
   * Requests per client address per window, counted for each route separately (every attempt
   * counts). Applies only when the client address is known (see `trustProxy`).
   * @default 100
   */
  max?: number;
  /**
   * Per account (the normalized email): failed sign-ins (a successful one is not counted), and
   * sign-up attempts. `false` turns it off.
   * @default { window: 900, max: 10 }
   */
  perAccount?: false | { window?: number; max?: number };
}

/** The limits after defaults; `perAccount` is `null` when off. */
export interface ResolvedRateLimit {
  perAddress: RateLimitRule;
  perAccount: RateLimitRule | null;
}

/** The defaults: 100 attempts per address and 10 failures per account, per 15 minutes. */
export const DEFAULT_RATE_LIMIT: Readonly<ResolvedRateLimit> = Object.freeze({
  perAddress: Object.freeze({ window: 900, max: 100 }),
  perAccount: Object.freeze({ window: 900, max: 10 }),
});

function fail(details: string): never {
  throw new ModuleConfigError("auth", details);
}

function rule(
  name: string,
  given: { window?: number; max?: number },
  fallback: RateLimitRule,
): RateLimitRule {
  const window = given.window ?? fallback.window;
  const max = given.max ?? fallback.max;
  if (!Number.isInteger(window) || window < 1 || window > 86_400) {
    fail(`${name}.window: expected whole seconds from 1 to 86400, got ${window}`);
  }
  if (!Number.isInteger(max) || max < 1) {
    fail(`${name}.max: expected a positive integer, got ${max}`);
  }
  return { window, max };
}

/** Applies the defaults of `rateLimit`; `null` when it is `false`. */
export function resolveRateLimit(
  option: false | RateLimitOptions | undefined,
): ResolvedRateLimit | null {
  if (option === false) return null;
  if (option === undefined) return DEFAULT_RATE_LIMIT;
  if (typeof option !== "object" || option === null) {
    fail("rateLimit: expected false or an object { window, max, perAccount }");
  }
  const perAccount = option.perAccount === false ? null : rule(
    "rateLimit.perAccount",
    option.perAccount ?? {},
    DEFAULT_RATE_LIMIT.perAccount!,
  );
  return { perAddress: rule("rateLimit", option, DEFAULT_RATE_LIMIT.perAddress), perAccount };
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;

/** Validates `trustProxy`: `false` or a header name, returned lower-cased. */
export function resolveTrustProxy(option: TrustProxy | undefined): TrustProxy {
  if (option === undefined || option === false) return false;
  if (typeof option !== "string" || !HEADER_NAME.test(option)) {
    fail(
      `trustProxy: expected false or the name of the header your proxy sets, like "x-forwarded-for", got ${
        JSON.stringify(option)
      }`,
    );
  }
  return option.toLowerCase();
}
