/**
 * Fixed-window rate limiting with its counters in the database (table `rate_limits`), so that
 * every process of a deployment counts the same hits: one atomic upsert per check.
 *
 * @module
 */

import { createHash } from "node:crypto";
import type { SqlAdapter } from "../../sql/mod.ts";
import { authError } from "../errors.ts";
import type { AuthTableNames } from "../tables.ts";

/**
 * At most `max` hits per bucket in each window of `window` seconds.
 *
 * @example
 * ```ts
 * import type { RateLimitRule } from "./rate_limiter.ts";
 *
 * const tenPerQuarterHour: RateLimitRule = { window: 900, max: 10 };
 * ```
 */
export interface RateLimitRule {
  /** The window's length in seconds. */
  window: number;
  /** Hits allowed in one window; the next one is refused until the window ends. */
  max: number;
}

/** The outcome of one {@link RateLimiter.check}. */
export interface RateLimitDecision {
  /** Whether this hit is within the rule (`hits <= max`). */
  allowed: boolean;
  /** Hits counted in the current window, this one included. */
  hits: number;
  /** When the current window started (database time); identifies it for {@link RateLimiter.refund}. */
  windowStartedAt: Date;
  /** Whole seconds until the window ends (at least 1): the `Retry-After` of a refusal. */
  retryAfterSeconds: number;
}

/**
 * Counts hits per bucket in the database. A bucket is any string naming what is counted, by
 * convention `"<action>:<kind>:<key>"` ({@link addressBucket}, {@link accountBucket}).
 *
 * @example Limit a route per client address (the verify-email routes are wired this way)
 * ```ts ignore
 * const decision = await limiter.enforce(addressBucket("verify-email", address), { window: 900, max: 20 });
 * // throws HttpError 429 RATE_LIMITED with Retry-After when over the limit
 * ```
 */
export interface RateLimiter {
  /**
   * Counts one hit in `bucket` and tells whether it is within `rule`. A window ends `rule.window`
   * seconds after its first hit; the first hit after that starts a new one. Hits beyond the limit
   * are counted too (they do not move the window). Concurrent checks, from any process on the same
   * database, never both see the same count.
   */
  check(bucket: string, rule: RateLimitRule): Promise<RateLimitDecision>;
  /**
   * {@link RateLimiter.check}, throwing `HttpError` 429 `RATE_LIMITED` with `Retry-After` when the
   * hit is over the limit. `what` names the action in the message ("sign-in attempts").
   */
  enforce(bucket: string, rule: RateLimitRule, what?: string): Promise<RateLimitDecision>;
  /**
   * Takes one hit back (for instance a sign-in attempt that succeeded, when only failures should
   * count), if the window of `decision` is still the current one.
   */
  refund(bucket: string, decision: RateLimitDecision): Promise<void>;
}

/** What {@link createRateLimiter} needs. */
export interface RateLimiterOptions {
  db: SqlAdapter;
  tables: AuthTableNames;
  /** How often expired windows are deleted, at most, per process. @default 60000 ms */
  purgeEveryMs?: number;
}

/**
 * The bucket of an action per client address (`addressKey` form: an IPv6 client counts per /64).
 *
 * @example
 * ```ts
 * import { addressBucket } from "./rate_limiter.ts";
 *
 * console.log(addressBucket("sign-in", "192.0.2.1")); // "sign-in:ip:192.0.2.1"
 * ```
 */
export function addressBucket(action: string, addressKey: string): string {
  return `${action}:ip:${addressKey}`;
}

/**
 * The bucket of an action per account: the SHA-256 of the normalized email, so the table keeps
 * no list of the addresses an attacker tried.
 *
 * @example
 * ```ts
 * import { accountBucket } from "./rate_limiter.ts";
 *
 * console.log(accountBucket("sign-in", "ada@example.com").startsWith("sign-in:account:")); // true
 * ```
 */
export function accountBucket(action: string, normalizedEmail: string): string {
  const digest = createHash("sha256").update(normalizedEmail).digest("hex").slice(0, 32);
  return `${action}:account:${digest}`;
}

interface CounterRow {
  hits: number;
  window_started_at: Date | string;
  remaining: number | string;
}

/**
 * The rate limiter of one module instance over its `rate_limits` table.
 *
 * @example
 * ```ts ignore
 * const limiter = createRateLimiter({ db, tables });
 * const decision = await limiter.check("sign-in:ip:192.0.2.1", { window: 900, max: 100 });
 * if (!decision.allowed) console.log(`retry in ${decision.retryAfterSeconds} s`);
 * ```
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { db, tables } = options;
  const purgeEveryMs = options.purgeEveryMs ?? 60_000;
  let lastPurge = Date.now();
  // A row is expired once its own rule's window has passed; rules never exceed the longest window
  // this process has checked, so rows older than that are surely expired (every process of a
  // deployment has the same rules).
  let longestWindow = 0;

  // One statement: a new bucket starts at 1; an expired window restarts at 1; otherwise + 1. The
  // row lock of ON CONFLICT serializes concurrent checks of one bucket across processes.
  // Windows start at millisecond precision so a JavaScript Date identifies one (refund).
  const now = "date_trunc('milliseconds', now())";
  const upsert = `INSERT INTO ${tables.rateLimits} AS counter (bucket, window_started_at, hits)
    VALUES ($1, ${now}, 1)
    ON CONFLICT (bucket) DO UPDATE SET
      window_started_at = CASE WHEN counter.window_started_at <= now() - make_interval(secs => $2)
        THEN ${now} ELSE counter.window_started_at END,
      hits = CASE WHEN counter.window_started_at <= now() - make_interval(secs => $2)
        THEN 1 ELSE counter.hits + 1 END
    RETURNING hits, window_started_at,
      extract(epoch FROM window_started_at + make_interval(secs => $2) - now()) AS remaining`;

  async function purgeNow(): Promise<void> {
    lastPurge = Date.now();
    await db.query(
      `DELETE FROM ${tables.rateLimits}
        WHERE window_started_at < now() - make_interval(secs => $1)`,
      [longestWindow],
    );
  }

  const limiter: RateLimiter = {
    async check(bucket, rule) {
      longestWindow = Math.max(longestWindow, rule.window);
      const rows = await db.query<CounterRow>(upsert, [bucket, rule.window]);
      const row = rows[0];
      if (Date.now() - lastPurge >= purgeEveryMs) await purgeNow();
      return {
        allowed: row.hits <= rule.max,
        hits: row.hits,
        windowStartedAt: new Date(row.window_started_at),
        retryAfterSeconds: Math.max(1, Math.ceil(Number(row.remaining))),
      };
    },
    async enforce(bucket, rule, what = "requests") {
      const decision = await limiter.check(bucket, rule);
      if (!decision.allowed) {
        throw authError(
          "RATE_LIMITED",
          `Too many ${what}; retry in ${decision.retryAfterSeconds} s`,
          { "retry-after": String(decision.retryAfterSeconds) },
        );
      }
      return decision;
    },
    async refund(bucket, decision) {
      await db.query(
        `UPDATE ${tables.rateLimits} SET hits = hits - 1
          WHERE bucket = $1 AND window_started_at = $2 AND hits > 0`,
        [bucket, decision.windowStartedAt],
      );
    },
  };
  return limiter;
}
